/// Runs one load of a panel: attempts with a timeout each, automatic retries with backoff, and a
/// minimum loading time so that an instant answer does not flicker.
///
/// It holds no state: the deck starts it in a task, hears about planned retries through
/// `willRetry`, and applies the outcome (unless the load was superseded meanwhile).
struct Runner: Sendable {
    let clock: DeckClock
    /// A number in `0..<1` for retry jitter.
    let random: @Sendable () -> Double
    /// Info past this ``Info/textSize`` fails the attempt as an invalid response.
    let maximumInfoSize: Int

    /// The attempt after a failure: its number and when it starts.
    struct Retry: Sendable, Equatable {
        var attempt: Int
        var startsAt: Duration
    }

    /// Loads `panel`, which began loading at `start`. Returns nil when cancelled.
    func run(
        _ panel: Panel,
        startedAt start: Duration,
        willRetry: @Sendable (Retry) async -> Void
    ) async -> Result<Info, PanelError>? {
        var retry = Retry(attempt: 1, startsAt: start)
        while true {
            let outcome = await attempt(panel, startedAt: retry.startsAt)
            guard case .failure(let error) = outcome,
                let delay = panel.retryPolicy.delay(after: retry.attempt, failedWith: error, random: random)
            else {
                // Answers are held back until the minimum loading time has passed.
                guard (try? await clock.sleep(until: start + panel.minimumLoadingTime)) != nil else { return nil }
                return outcome
            }
            retry = Retry(attempt: retry.attempt + 1, startsAt: clock.now + delay)
            await willRetry(retry)
            guard (try? await clock.sleep(until: retry.startsAt)) != nil else { return nil }
        }
    }

    private func attempt(_ panel: Panel, startedAt start: Duration) async -> Result<Info, PanelError> {
        let timeout = PanelError(.timeout, detail: "No answer within \(panel.timeout).")
        do {
            let info = try await clock.run(until: start + panel.timeout, orThrow: timeout, panel.load)
            guard info.textSize <= maximumInfoSize else {
                return .failure(PanelError(.invalidResponse, detail:
                    "The answer holds \(info.textSize) bytes of text; a panel shows at most \(maximumInfoSize)."))
            }
            return .success(info)
        } catch {
            return .failure(PanelError(error))
        }
    }
}
