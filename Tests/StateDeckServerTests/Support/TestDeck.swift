import StateDeck

/// The deck every live test serves: three panels whose loads and item action the test scripts.
///
/// - `api` ("API"): a plain panel.
/// - `jobs` ("Jobs"): a list of two jobs offering a "Restart" item action.
/// - `db` ("Database"): has a placeholder.
///
/// Loads are instant (no minimum loading time, no automatic retry) unless a script holds them.
struct TestDeck: Sendable {
    static let panelIds = ["api", "jobs", "db"]
    static let title = "Test stack"
    static let jobsInfo = Info(summary: "2 jobs", items: [
        Info.Item(id: "job-1", title: "Job 1"),
        Info.Item(id: "job-2", title: "Job 2"),
    ])
    static let dbPlaceholder = Info(summary: "Database placeholder")

    let api = Script<Info>(.success(Info(summary: "API OK")))
    let jobs = Script<Info>(.success(jobsInfo))
    let db = Script<Info>(.success(Info(summary: "Database OK")))
    /// The "Restart" item action of `jobs`.
    let restart = Script<Void>(.success(()))

    func make() -> Deck {
        Deck(Self.title) {
            Panel("api", title: "API") { try await api.run() }
                .minimumLoadingTime(.zero)
                .retry(.none)
            Panel("jobs", title: "Jobs") { try await jobs.run() }
                .minimumLoadingTime(.zero)
                .retry(.none)
                .itemAction("restart", "Restart") { _ in try await restart.run() }
            Panel("db", title: "Database") { try await db.run() }
                .minimumLoadingTime(.zero)
                .retry(.none)
                .placeholder(Self.dbPlaceholder)
        }
    }

    /// Lets every held run end, so that stopping never waits on one.
    func releaseAll() {
        api.release()
        jobs.release()
        db.release()
        restart.release()
    }
}
