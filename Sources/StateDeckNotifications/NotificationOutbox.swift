import FoundationEssentials
import StateDeck

/// What is owed to the targets of `notify:` entries, gathered into messages: for each target (by
/// its address and gathering window) at most one message being sent and one collecting behind it,
/// in which each entry has at most one delivery; and for each address at most `limit` deliveries
/// in both. A target that hangs or fails then holds a bounded backlog however often its panels
/// flap, and what waits is what is still true, not every change since it stopped answering.
///
/// A collection opens a window when its first delivery joins; it goes out as one message when the
/// window has ended, the target is sending nothing (at the window's end, or once the message
/// before it is done) and the ledger has kept every delivery in it. Without gathering, each entry is a target of its own and its window ends as
/// it opens: sent at once, or after the one being sent.
///
/// | a notification for an entry that … | becomes |
/// | --- | --- |
/// | has nothing collecting | collecting, in the next message |
/// | has a failure collecting, and this is the recovery | one recovery collecting that tells the whole outage: "API was down for 3 min (Timed out) and is up again" |
/// | has a failure collecting, and this is a reminder | nothing: the failure collecting says it is down |
/// | has a recovery collecting whose failure went out, and this is a failure | nothing, and the recovery is withdrawn: the target was told it is down, and it is again |
/// | has a recovery collecting whose failure went out, and this is a recovery telling a whole outage | nothing: the target was told it is down, and the recovery collecting says it is up (the outage between began and ended while it waited) |
/// | has anything else collecting | collecting in its place: only the newest is owed |
/// | would take its address past `limit` deliveries sent or collecting | dropped, and counted by the caller |
struct NotificationOutbox {
    /// Whose deliveries gather into one message.
    struct Group: Hashable {
        /// The target's ``NotificationTarget/address``.
        var address: String
        var window: Duration
        /// The entry's key when it does not gather: its deliveries go alone.
        var entry: String?
    }

    /// What became of a notification handed to ``admit(_:to:)``.
    enum Admission: Equatable {
        /// Collecting for its group's next message, in place of `replacing` (forgotten: nothing
        /// owes it); `opened` when it opened the group's window.
        case joined(PendingDelivery, replacing: PendingDelivery.ID?, opened: Bool)
        /// The delivery collecting already says as much.
        case absorbed
        /// A failure that withdrew the recovery collecting (forgotten: nothing owes it): the
        /// target last heard the panel is down, and it is down again.
        case withdrew(PendingDelivery)
        /// Over its address's limit.
        case dropped

        /// The delivery the entry owes from now on, to keep in the ledger; nil when nothing new is.
        var owed: PendingDelivery? {
            if case .joined(let delivery, _, _) = self { delivery } else { nil }
        }

        /// The delivery collecting before, which `owed` replaces: the ledger forgets it.
        var replaced: PendingDelivery.ID? {
            switch self {
            case .joined(_, let replaced, _): replaced
            case .withdrew(let recovery): recovery.id
            case .absorbed, .dropped: nil
            }
        }
    }

    /// A group's deliveries going out as one message.
    struct Message: Equatable {
        var group: Group
        var deliveries: [PendingDelivery]
    }

    private struct Queue {
        /// The message being sent; empty while none is.
        var sending: [PendingDelivery.ID] = []
        /// In the order they joined; an entry's replacement keeps its place.
        var collecting: [PendingDelivery] = []
        /// Each collecting delivery's place, by entry key.
        var places: [String: Int] = [:]
        /// Whether `collecting` waits for its window's end.
        var windowOpen = false

        /// Collects `delivery` by the table's rules; the address's limit was checked.
        mutating func admit(_ delivery: PendingDelivery) -> Admission {
            guard let place = places[delivery.key] else {
                let opened = collecting.isEmpty
                places[delivery.key] = collecting.count
                collecting.append(delivery)
                if opened { windowOpen = true }
                return .joined(delivery, replacing: nil, opened: opened)
            }
            let collected = collecting[place]
            let replacement: PendingDelivery
            switch (collected.notification.event, delivery.notification.event) {
            case (.failure, .reminder):
                return .absorbed
            case (.recovery, .recovery) where collected.notification.error == nil && delivery.notification.error != nil:
                return .absorbed
            case (.recovery, .failure) where collected.notification.error == nil:
                // Only the deliveries after it move up a place.
                collecting.remove(at: place)
                places[delivery.key] = nil
                for index in collecting.indices.dropFirst(place) { places[collecting[index].key] = index }
                return .withdrew(collected)
            case (.failure, .recovery):
                replacement = PendingDelivery(id: delivery.id, key: delivery.key,
                                              notification: delivery.notification.tellingWholeOutage(of: collected.notification))
            default:
                replacement = delivery
            }
            collecting[place] = replacement
            return .joined(replacement, replacing: collected.id, opened: false)
        }
    }

    /// The most deliveries one address may have sent or collecting.
    let limit: Int
    private var queues: [Group: Queue] = [:]
    /// Deliveries sent or collecting, by address.
    private var owedByAddress: [String: Int] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Deliveries sent or collecting, for every address.
    var owed: Int { owedByAddress.values.reduce(0, +) }

    /// Takes `delivery`, a notification of one entry, for `group`'s next message. The group's
    /// queue is changed in place: a copy of its collection at each admission would make a storm
    /// of 10,000 quadratic.
    mutating func admit(_ delivery: PendingDelivery, to group: Group) -> Admission {
        let isNew = queues[group]?.places[delivery.key] == nil
        if isNew {
            guard owedByAddress[group.address, default: 0] < limit else { return .dropped }
            owedByAddress[group.address, default: 0] += 1
        }
        let admission = queues[group, default: Queue()].admit(delivery)
        if case .withdrew = admission { owedByAddress[group.address, default: 0] -= 1 }
        return admission
    }

    /// `group`'s window ended: its message, unless it is still sending one or `isKept` says the
    /// ledger does not have every delivery of it yet.
    mutating func windowEnded(_ group: Group, ifKept isKept: ([PendingDelivery]) -> Bool) -> Message? {
        queues[group]?.windowOpen = false
        return message(of: group, ifKept: isKept)
    }

    /// `group`'s message is done: the next one, when its window has ended and `isKept` holds.
    mutating func finished(_ group: Group, ifKept isKept: ([PendingDelivery]) -> Bool) -> Message? {
        guard var queue = queues[group] else { return nil }
        owedByAddress[group.address, default: 0] -= queue.sending.count
        if owedByAddress[group.address] == 0 { owedByAddress[group.address] = nil }
        queue.sending = []
        queues[group] = queue
        return message(of: group, ifKept: isKept)
    }

    /// `group`'s collection as a message to send, once its window has ended, nothing is being sent
    /// and `isKept` says the ledger has every delivery of it; until then it goes on collecting (a
    /// recovery still replaces the failure it follows).
    mutating func message(of group: Group, ifKept isKept: ([PendingDelivery]) -> Bool) -> Message? {
        guard var queue = queues[group], queue.sending.isEmpty, !queue.windowOpen else { return nil }
        guard !queue.collecting.isEmpty else {
            queues[group] = nil
            return nil
        }
        guard isKept(queue.collecting) else { return nil }
        let message = Message(group: group, deliveries: queue.collecting)
        queue.sending = queue.collecting.map(\.id)
        queue.collecting = []
        queue.places = [:]
        queues[group] = queue
        return message
    }

    /// Everything collecting, no longer owed here: what a notifier that stops hands to the next.
    mutating func takeCollecting() -> [PendingDelivery] {
        var taken: [PendingDelivery] = []
        for (group, var queue) in queues where !queue.collecting.isEmpty {
            owedByAddress[group.address, default: 0] -= queue.collecting.count
            taken += queue.collecting
            queue.collecting = []
            queue.places = [:]
            queue.windowOpen = false
            queues[group] = queue
        }
        return taken.sorted { ($0.notification.at, $0.id.uuidString) < ($1.notification.at, $1.id.uuidString) }
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
