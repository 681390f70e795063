/// What a loader tells the deck while it runs: that its load waits for its turn behind a limit
/// of its source (the commands running at once, the http requests to one host), and when the
/// turn comes.
///
/// While a load waits, its panel's state says `queued`, and its attempt's timeout stands still:
/// a panel's timeout bounds the work, not the time spent in line behind other panels.
///
/// ```swift
/// Panel("jobs", title: "Jobs") {
///     await LoadProgress.waitingForTurn(true)
///     let slot = try await pool.acquire()
///     await LoadProgress.waitingForTurn(false)
///     …
/// }
/// ```
public enum LoadProgress {
    /// Installed by the deck around each attempt of a panel's load; child tasks inherit it.
    @TaskLocal static var reporter: Reporter?

    /// Tells the deck that this task's load waits for its turn (`true`) or has it (`false`).
    /// Outside a panel's load (a test, a recovery command), it does nothing.
    public static func waitingForTurn(_ waiting: Bool) async {
        await reporter?.report(waiting)
    }

    /// The deck's ear for one attempt. A class, not the bare closure: a task-local of optional
    /// function type crashes optimized builds in `swift_task_localValuePush` (Swift 6.3.1).
    final class Reporter: Sendable {
        let report: @Sendable (_ waiting: Bool) async -> Void

        init(_ report: @escaping @Sendable (_ waiting: Bool) async -> Void) {
            self.report = report
        }
    }
}
