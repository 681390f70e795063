import Locking

/// Fans server-sent events out to every connected client, and catches reconnecting clients up.
///
/// Each event gets the next id, is encoded once, kept in a ring of the newest
/// `historyCapacity` events, and the same bytes are handed to every subscriber. A client that
/// reconnects with `Last-Event-ID` gets exactly the events it missed when they are all still
/// held, and otherwise one `snapshot` event to start again from.
///
/// Publishing and subscribing are serialized, so every client sees events in id order, none
/// lost or repeated between its catch-up and the live events. Sinks are written to with that
/// serialization held, but never with the subscriber list locked, so a sink may call
/// `unsubscribe` from inside `write` or `finish`.
public final class EventHub: Sendable {
    public let configuration: Configuration

    /// Held for all of a publish or a subscribe: it orders ids, history and writes together.
    let history: Locked<EventHistory>
    /// Held only briefly, never while calling a sink. Always taken after `history` or `pinger`
    /// when nested.
    let registry = Locked(SubscriberRegistry())
    let pinger = Locked<Task<Void, Never>?>(nil)
    /// Only taken inside `history`, which orders the broadcasts it times.
    let pacing = Locked(BroadcastPacing())
    let retryBytes: [UInt8]
    static let pingBytes = ServerSentEvent.comment("ping")

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let firstID = configuration.firstEventID ?? WallClock.microsecondsSince1970()
        history = Locked(EventHistory(firstID: firstID, capacity: configuration.historyCapacity))
        retryBytes = ServerSentEvent.retry(after: configuration.reconnectDelay)
    }

    deinit {
        pinger.current?.cancel()
    }

    /// How many clients are registered.
    public var subscriberCount: Int {
        registry.withLock { $0.sinks.count }
    }

    /// The id of the newest event published, or one less than the first id before any.
    public var lastEventID: UInt64 {
        history.withLock { $0.lastID }
    }
}
