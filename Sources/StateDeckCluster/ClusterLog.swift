import Dispatch
import Locking
import StateDeckServer
import Threading

/// The leader's events on their way to the store: the deck's mirror relays each one here, and
/// the leader's thread takes them in batches, in order.
final class ClusterLog: EventRelay {
    /// An event with the panels as it left them, exported as it was relayed: the store's rows
    /// then hold what the event ids name, however late the leader writes them.
    struct Entry: Sendable {
        var event: String
        var data: String
        /// The panel the event changed, as it left it.
        var panels: [ExportedPanel] = []
        /// The deck's other parts as an event that names no panel left them.
        var parts: ExportedDeckParts?
        /// A `snapshot`'s whole deck.
        var deck: DeckExport?
    }

    /// The deck as a `snapshot` left it: its layout, every panel, and its state document around
    /// the id the leader gives it.
    struct DeckExport: Sendable {
        var header: [UInt8]
        var order: [String]
        var panels: [ExportedPanel]
        var parts: ExportedDeckParts
        var document: (beforeID: [UInt8], afterID: [UInt8])
    }

    private struct Queue {
        var entries: [Entry] = []
        /// Only while this server leads: a deck stopping after it lost the lead says nothing more.
        var accepting = false
        /// Entries ever taken.
        var appended: UInt64 = 0
        /// How many entries had been taken when this server last began to lead.
        var ledFrom: UInt64 = 0
        /// The newest entry (counted as `appended` counts) that never reached the store: dropped
        /// when the lead was lost, or in a batch that could not be written.
        var lastLost: UInt64 = 0
    }

    private let queue = Locked(Queue())
    /// Entries written or dropped, of those taken.
    private let settledCount = Watermark()
    private let arrived = DispatchSemaphore(value: 0)

    /// The server whose running deck's panels each entry exports.
    private let exporter = Locked<HostedServer?>(nil)

    /// Exports the panels of `server`'s running deck with each event from now on.
    func export(from server: HostedServer) {
        exporter.withLock { $0 = server }
    }

    func relay(event: String, data: @autoclosure () -> String, panel: String?) {
        guard queue.withLock({ $0.accepting }) else { return }
        // The leader writes a snapshot's document with the id it gives it.
        var entry = Entry(event: event, data: event == "snapshot" ? "" : data())
        if let server = exporter.current {
            if event == "snapshot" {
                let layout = server.exportedLayout()
                entry.deck = DeckExport(header: layout.header, order: layout.order, panels: server.exportedPanels(layout.order),
                                        parts: server.exportedDeckParts(), document: server.exportedDocument())
            } else if let panel {
                entry.panels = server.exportedPanels([panel])
            } else {
                entry.parts = server.exportedDeckParts()
            }
        }
        let first = queue.withLock { queue -> Bool in
            guard queue.accepting else { return false }
            queue.entries.append(entry)
            queue.appended += 1
            return queue.entries.count == 1
        }
        if first { arrived.signal() }
    }

    /// Starts or stops taking events; stopping drops what waits, and what was taken and not
    /// written yet is lost with the lead.
    func setAccepting(_ accepting: Bool) {
        let dropped = queue.withLock { queue -> UInt64? in
            queue.accepting = accepting
            guard !accepting else {
                queue.ledFrom = queue.appended
                return nil
            }
            queue.entries = []
            queue.lastLost = queue.appended
            return queue.appended
        }
        if let dropped { settledCount.raise(to: dropped) }
    }

    /// Up to `limit` of the oldest entries, after waiting up to `timeout` for one.
    func take(upTo limit: Int, waiting timeout: Duration) -> [Entry] {
        if queue.withLock({ $0.entries.isEmpty }) {
            _ = arrived.wait(timeout: .now() + .nanoseconds(Int(timeout / .nanoseconds(1))))
        }
        return queue.withLock { queue in
            let batch = Array(queue.entries.prefix(limit))
            queue.entries.removeFirst(batch.count)
            return batch
        }
    }

    /// Counts `count` entries taken as written, or `lost` (a batch that could not be written).
    func settle(_ count: Int, lost: Bool = false) {
        if lost { queue.withLock { $0.lastLost = max($0.lastLost, settledCount.level + UInt64(count)) } }
        settledCount.raise(by: UInt64(count))
    }

    /// Whether every entry taken so far in this lead is written, waiting `limit` at most: false
    /// when one was lost (the lead with it), or is still on its way.
    func settled(within limit: Duration) async -> Bool {
        let (target, ledFrom) = queue.withLock { ($0.appended, $0.ledFrom) }
        guard await settledCount.wait(for: target, within: limit) else { return false }
        return queue.withLock { $0.lastLost <= ledFrom }
    }

    /// Wakes a `take` that waits.
    func wake() {
        arrived.signal()
    }
}
