/// Runs one load of a panel: attempts with a timeout each, automatic retries with backoff, and a
/// minimum loading time so that an instant answer does not flicker.
///
/// It holds no state: the deck starts it in a task, hears about planned retries through
/// `willRetry` and about a load waiting for its turn through `waiting` (``LoadProgress``), and
/// applies the outcome (unless the load was superseded meanwhile).
struct Runner: Sendable {
    let clock: DeckClock
    /// A number in `0..<1` for retry jitter.
    let random: @Sendable () -> Double
    /// Info past this ``Info/textSize``, or listing more items than `maximumInfoItems`, fails the
    /// attempt as an invalid response.
    let maximumInfoSize: Int
    let maximumInfoItems: Int

    /// The attempt after a failure: its number and when it starts.
    struct Retry: Sendable, Equatable {
        var attempt: Int
        var startsAt: Duration
    }

    /// A load's outcome, and when it came: the minimum loading time may have held it back since,
    /// and that wait is not the source's.
    struct Answer: Sendable {
        var outcome: Result<Info, PanelError>
        var answeredAt: Duration
    }

    /// Loads `panel`, which began loading at `start`; with `holdingMinimum`, the answer waits
    /// until the panel's minimum loading time has passed. Returns nil when cancelled. It runs on
    /// the caller's executor (the deck's actor, which waits for nothing meanwhile): each hop to
    /// the global executor and back costs two thread hand-offs per load.
    nonisolated(nonsending) func run(
        _ panel: Panel,
        startedAt start: Duration,
        holdingMinimum: Bool = true,
        waiting: @escaping @Sendable (Bool) async -> Void,
        willRetry: @Sendable (Retry) async -> Void
    ) async -> Answer? {
        var retry = Retry(attempt: 1, startsAt: start)
        while true {
            let outcome = await attempt(panel, startedAt: retry.startsAt, waiting: waiting)
            guard case .failure(let error) = outcome,
                let delay = panel.retryPolicy.delay(after: retry.attempt, failedWith: error, random: random)
            else {
                let answer = Answer(outcome: outcome, answeredAt: clock.now)
                // Answers are held back until the minimum loading time has passed.
                let shownUntil = holdingMinimum ? start + panel.minimumLoadingTime : start
                guard (try? await clock.sleep(until: shownUntil)) != nil else { return nil }
                return answer
            }
            retry = Retry(attempt: retry.attempt + 1, startsAt: clock.now + delay)
            await willRetry(retry)
            guard (try? await clock.sleep(until: retry.startsAt)) != nil else { return nil }
        }
    }

    /// One attempt, whose timeout stands still while the loader waits for its turn.
    private nonisolated(nonsending) func attempt(
        _ panel: Panel, startedAt start: Duration, waiting: @escaping @Sendable (Bool) async -> Void
    ) async -> Result<Info, PanelError> {
        let timeout = PanelError(.timeout, detail: "No answer within \(panel.timeout).")
        do {
            let info = try await clock.run(until: start + panel.timeout, orThrow: timeout, waiting: waiting, panel.load)
            return checked(info)
        } catch {
            return .failure(PanelError(error))
        }
    }
}

extension Runner {
    /// `info`, or the invalid-response error naming the limit it passes: every info a panel
    /// shows (loaded, pushed, forced) is checked, so none can make the events it travels in grow
    /// past the limits.
    func checked(_ info: Info) -> Result<Info, PanelError> {
        let advice = "Narrow what the panel loads, or split it into several panels."
        if let items = info.items?.count, items > maximumInfoItems {
            return .failure(PanelError(.invalidResponse,
                failureReason: "The answer lists \(items) items; a panel shows at most \(maximumInfoItems).",
                recoverySuggestion: advice))
        }
        guard info.textSize <= maximumInfoSize else {
            return .failure(PanelError(.invalidResponse,
                failureReason: "The answer holds \(info.textSize.kibibytes) KiB of text; a panel shows at most \(maximumInfoSize.kibibytes) KiB.",
                recoverySuggestion: advice))
        }
        return .success(info)
    }
}

extension Int {
    /// Bytes as whole kibibytes, rounded up, for messages.
    fileprivate var kibibytes: Int { (self + 1023) / 1024 }
}
