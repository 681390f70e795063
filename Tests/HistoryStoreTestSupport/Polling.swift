import Testing

/// Polls `condition` every 5 ms, for 10 s at most: what a test waits for that another task or
/// thread brings about.
public func until(_ condition: () async -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(5))
    }
    Issue.record("Timed out waiting for a condition", sourceLocation: sourceLocation)
}
