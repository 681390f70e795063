import StateDeck

/// Tells the deck's incident targets (``Deck/Configuration/incidentTargets``) each incident
/// opened, updated or resolved, as ``DeckNotification/incident(_:)`` says it.
///
/// | rule | |
/// | --- | --- |
/// | when | at once: an incident is news people act on, so it is neither gathered nor held |
/// | order | one step after the other, each to every target at once: a target hears an update after the opening |
/// | a target that fails | retried as the target retries an outage's notification; given up, logged `failed` and handed to `onFailure` |
/// | the log | each step and target as an entry of event `incident`, `sent` or `failed` |
///
/// Unlike an outage's notifications, a step is not kept across a restart: the incident is, and
/// its page and state say where it stands.
public final class IncidentAnnouncer: Sendable {
    private let steps: AsyncStream<DeckNotification>.Continuation

    public init(targets: [any NotificationTarget], log: NotificationLog,
                onFailure: @escaping @Sendable (String) -> Void) {
        let (stream, steps) = AsyncStream<DeckNotification>.makeStream()
        self.steps = steps
        Task {
            for await step in stream {
                await Self.send(step, to: targets, log: log, onFailure: onFailure)
            }
        }
    }

    /// Tells the incidents `deck` opens or updates from now on.
    public func follow(_ deck: Deck) async {
        await deck.observe { [steps] event in
            guard case .incidents(_, let kept) = event else { return }
            for incident in kept { steps.yield(.incident(incident)) }
        }
    }

    /// Takes no more steps; those taken are still sent.
    public func stop() {
        steps.finish()
    }

    private static func send(_ step: DeckNotification, to targets: [any NotificationTarget], log: NotificationLog,
                             onFailure: @escaping @Sendable (String) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for target in targets {
                group.addTask {
                    do {
                        try await target.deliver(step)
                        log.record(NotificationLog.Entry(step, target: target.name, outcome: .sent))
                    } catch {
                        log.record(NotificationLog.Entry(step, target: target.name, outcome: .failed("\(error)")))
                        onFailure("\(error)")
                    }
                }
            }
        }
    }
}
