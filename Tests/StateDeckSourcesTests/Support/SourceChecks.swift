import Foundation
import StateDeck
import TestSupport
import Testing

/// A loopback port nothing listens on: one the system just gave a listener, closed again.
func closedLoopbackPort() throws -> Int {
    let (listener, port) = try LoopbackListener.listen()
    close(listener)
    return Int(port)
}

/// Starts `load` (whose timeout is far off), gives it `head` to get under way, cancels it and
/// expects it to end with `CancellationError` within a second.
func expectEndsAtOnceWhenCancelled(
    after head: Duration = .milliseconds(300), sourceLocation: SourceLocation = #_sourceLocation,
    _ load: @escaping @Sendable () async throws -> Info
) async throws {
    let check = Task { try await load() }
    try await Task.sleep(for: head)
    let started = ContinuousClock.now
    check.cancel()
    await #expect(throws: CancellationError.self, sourceLocation: sourceLocation) { try await check.value }
    #expect(ContinuousClock.now - started < .seconds(1), "ended only at its timeout", sourceLocation: sourceLocation)
}
