/// Runs `body` with `resource`, then stops it, also when `body` throws: how every test server is
/// run, so that none outlives its test.
public func stopping<Resource>(
    _ resource: Resource, with stop: (Resource) async -> Void, after body: (Resource) async throws -> Void
) async throws {
    do {
        try await body(resource)
    } catch {
        await stop(resource)
        throw error
    }
    await stop(resource)
}
