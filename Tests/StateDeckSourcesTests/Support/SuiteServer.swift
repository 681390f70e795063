import Testing

/// A server of a suite's own (`TemporaryMariaDB`, `TemporaryRedis`,
/// `TemporaryPostgresWithPasswords`): started before its tests, which find it as `current`,
/// and removed after them.
protocol SuiteServer: AnyObject, Sendable {
    /// The task-local value the suite's tests read the server from.
    static var current: TaskLocal<Self?> { get }
    init() async throws
    /// Makes it ready for the tests: started, its users and data made.
    func start() async throws
    /// Stops it and deletes what it made.
    func remove() async
}

/// The trait that gives a suite its server of type `Server`.
struct SuiteServerScope<Server: SuiteServer>: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await Server()
        do {
            try await server.start()
            try await Server.current.withValue(server) { try await function() }
        } catch {
            await server.remove()
            throw error
        }
        await server.remove()
    }
}
