import FoundationEssentials
import StateDeck

/// What is owed to the targets of `notify:` entries: for each entry, at most one delivery being
/// sent and one waiting behind it, and for each target at most `limit` of both. A target that
/// hangs or fails then holds a bounded backlog however often its panels flap, and what waits is
/// what is still true, not every change since it stopped answering.
///
/// | a notification for an entry that … | becomes |
/// | --- | --- |
/// | is sending nothing | sent now |
/// | is sending one, with nothing waiting | waiting |
/// | has a failure waiting, and this is the recovery | one recovery waiting that tells the whole outage: "API was down for 3 min (Timed out) and is up again" |
/// | has a failure waiting, and this is a reminder | nothing: the failure waiting says it is down |
/// | has anything else waiting | waiting in its place: only the newest is owed |
/// | would take its target past `limit` deliveries sent or waiting | dropped, and counted by the caller |
struct NotificationOutbox {
    /// What became of a notification handed to ``admit(_:to:)``.
    enum Admission: Equatable {
        /// To send now.
        case send(PendingDelivery)
        /// Waits behind the one being sent, in place of `replacing` (forgotten: nothing owes it).
        case wait(PendingDelivery, replacing: PendingDelivery.ID?)
        /// The delivery waiting already says as much.
        case absorbed
        /// Over its target's limit.
        case dropped

        /// The delivery the entry owes from now on, to keep in the ledger; nil when nothing new is.
        var owed: PendingDelivery? {
            switch self {
            case .send(let delivery), .wait(let delivery, _): delivery
            case .absorbed, .dropped: nil
            }
        }

        /// The delivery waiting before, which `owed` replaces: the ledger forgets it.
        var replaced: PendingDelivery.ID? {
            if case .wait(_, let replaced) = self { replaced } else { nil }
        }
    }

    private struct Entry {
        var target: String
        var sending: PendingDelivery.ID
        var waiting: PendingDelivery?
    }

    /// The most deliveries one target may have sent or waiting.
    let limit: Int
    /// By entry key (``Notifier/Subscription/key``), while it is sending.
    private var entries: [String: Entry] = [:]
    /// Deliveries sent or waiting, by target name.
    private var owedByTarget: [String: Int] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Deliveries sent or waiting, for every target.
    var owed: Int { owedByTarget.values.reduce(0, +) }

    /// Takes `delivery`, a notification of one entry to `target`.
    mutating func admit(_ delivery: PendingDelivery, to target: String) -> Admission {
        guard var entry = entries[delivery.key] else {
            guard owedByTarget[target, default: 0] < limit else { return .dropped }
            owedByTarget[target, default: 0] += 1
            entries[delivery.key] = Entry(target: target, sending: delivery.id)
            return .send(delivery)
        }
        guard let waiting = entry.waiting else {
            guard owedByTarget[target, default: 0] < limit else { return .dropped }
            owedByTarget[target, default: 0] += 1
            entry.waiting = delivery
            entries[delivery.key] = entry
            return .wait(delivery, replacing: nil)
        }
        let replacement: PendingDelivery
        switch (waiting.notification.event, delivery.notification.event) {
        case (.failure, .reminder):
            return .absorbed
        case (.failure, .recovery):
            replacement = PendingDelivery(id: delivery.id, key: delivery.key,
                                          notification: delivery.notification.tellingWholeOutage(of: waiting.notification))
        default:
            replacement = delivery
        }
        entry.waiting = replacement
        entries[delivery.key] = entry
        return .wait(replacement, replacing: waiting.id)
    }

    /// The delivery `key`'s entry was sending is done: the one waiting behind it, now being sent.
    mutating func finished(_ key: String) -> PendingDelivery? {
        guard var entry = entries[key] else { return nil }
        owedByTarget[entry.target, default: 1] -= 1
        guard let next = entry.waiting else {
            entries[key] = nil
            return nil
        }
        entry.sending = next.id
        entry.waiting = nil
        entries[key] = entry
        return next
    }
}

extension DeckNotification {
    /// This recovery told in place of `failure`, which never reached the target: one message for
    /// the whole outage, with its error.
    func tellingWholeOutage(of failure: DeckNotification) -> DeckNotification {
        var told = self
        told.error = failure.error
        let cause = failure.error.map { " (\($0.title))" } ?? ""
        told.message = "\(title) was down for \(Duration.seconds(downSeconds).lengthText)\(cause) and is up again"
        return told
    }
}
