import Dispatch
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fans server-sent events out to every connected client, and catches reconnecting clients up.
///
/// Each event gets the next id, is encoded once, kept among the newest events (at most
/// `historyCapacity` of them and `historyByteLimit` bytes), and the same bytes are handed to every
/// subscriber. A client that
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
    /// The newest id published, for a catch-up to wait on.
    let published: Watermark
    let retryBytes: [UInt8]
    static let pingBytes = ServerSentEvent.comment("ping")

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let firstID = max(configuration.firstEventID ?? WallClock.microsecondsSince1970(),
                          configuration.earlierLastEventID + 1)
        history = Locked(EventHistory(
            firstID: firstID, capacity: configuration.historyCapacity, byteLimit: configuration.historyByteLimit))
        published = Watermark(level: firstID - 1)
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

    /// How many events were published (with an id): ids numbered elsewhere may jump, so they
    /// do not count them.
    public var publishedCount: UInt64 {
        history.withLock { $0.appendedCount }
    }
}

// MARK: - Configuration

extension EventHub {
    /// How an `EventHub` keeps history, pings and numbers its events.
    public struct Configuration: Sendable {
        /// How many of the newest events are kept for clients that reconnect with
        /// `Last-Event-ID`; one that missed more gets a snapshot instead.
        public var historyCapacity: Int
        /// The most bytes of events kept for reconnecting clients (8 MiB), whatever their count:
        /// large events cannot make the history grow past it.
        public var historyByteLimit: Int
        /// How often `startPinging()` writes a `: ping` comment to every client. This keeps
        /// proxies from timing the stream out, and is how the hub notices dead clients.
        public var pingInterval: Duration
        /// Sent once to every client as `retry:`: how long the browser waits to reconnect.
        public var reconnectDelay: Duration
        /// The id of the first event (at least 1). Nil takes the microseconds since 1970 at the
        /// hub's creation, so ids a client kept from an earlier server run are older than
        /// anything this hub holds, and that client gets a snapshot rather than wrong events.
        public var firstEventID: UInt64?
        /// The newest id an earlier run issued (kept by a history store), 0 for none: ids start
        /// after it even when the real-time clock was set back meanwhile.
        public var earlierLastEventID: UInt64 = 0
        /// Threads that write one event to many subscribers together, each taking at least 512
        /// of them; by default, one per processor online. Pings take one.
        public var broadcastWriters: Int

        public init(
            historyCapacity: Int = 4096,
            historyByteLimit: Int = 8 << 20,
            pingInterval: Duration = .seconds(15),
            reconnectDelay: Duration = .seconds(2),
            firstEventID: UInt64? = nil,
            broadcastWriters: Int? = nil
        ) {
            self.historyCapacity = historyCapacity
            self.historyByteLimit = historyByteLimit
            self.pingInterval = pingInterval
            self.reconnectDelay = reconnectDelay
            self.firstEventID = firstEventID
            self.broadcastWriters = broadcastWriters ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }
    }
}

// MARK: - Subscribing

extension EventHub {
    /// A registered client, as returned by `subscribe`; pass it to `unsubscribe`.
    public struct Subscription: Hashable, Sendable {
        let token: UInt64
    }
}

extension EventHub {
    /// Registers a client: writes `retry:`, catches it up, then sends it every new event.
    ///
    /// When `lastEventID` is an id this hub issued and every event after it is still held,
    /// the client gets exactly those events; otherwise (no id, not a number, too old, skipped
    /// by ids numbered elsewhere, or newer than anything issued) it gets one `snapshot` event
    /// whose id is the hub's `lastEventID`.
    /// No event is lost or repeated between the catch-up and the live events.
    ///
    /// - Parameter snapshot: The whole current state as of the given event id (the snapshot's
    ///   own id), called only when a snapshot is needed.
    ///   It runs while publishing is held off, so it must be quick and must not call back into
    ///   this hub (that would deadlock). It must include every event published so far; it may
    ///   also include a change whose event is about to be published, which the client then
    ///   receives again (harmless when events carry whole documents).
    /// - Returns: The subscription, or nil when the sink failed during the catch-up or the hub
    ///   is closed; the sink is then finished and not registered.
    public func subscribe(
        _ sink: any EventSink,
        lastEventID: String?,
        snapshot: (_ lastEventID: UInt64) -> String
    ) -> Subscription? {
        subscribe(sink, lastEventID: lastEventID) { id in (snapshot(id), numbered: true) }
    }

    /// As the `subscribe` above, for a server that may
    /// show a state of its own (its store cannot be reached, say): a snapshot not `numbered` is
    /// sent without an id, so that no id names a document other servers following the same
    /// events do not have.
    public func subscribe(
        _ sink: any EventSink,
        lastEventID: String?,
        snapshot: (_ lastEventID: UInt64) -> (data: String, numbered: Bool)
    ) -> Subscription? {
        let token: UInt64? = history.withLock { history in
            guard !registry.withLock({ $0.isClosed }), sink.write(retryBytes) else { return nil }
            if let missed = lastEventID.flatMap({ UInt64($0) }).flatMap(history.events(after:)) {
                for bytes in missed {
                    guard sink.write(bytes) else { return nil }
                }
            } else {
                let state = snapshot(history.lastID)
                let event = ServerSentEvent(event: "snapshot", id: state.numbered ? history.lastID : nil, data: state.data)
                guard sink.write(event.encoded()) else { return nil }
            }
            return registry.withLock { $0.add(sink) }
        }
        guard let token else {
            sink.finish()
            return nil
        }
        return Subscription(token: token)
    }

    /// Stops sending to a client. Safe to call more than once, and concurrently with a publish
    /// that drops the same client; a publish already under way may still write to it once.
    /// The sink is not finished: the caller owns it (typically this runs from its close handler).
    public func unsubscribe(_ subscription: Subscription) {
        _ = registry.withLock { $0.remove(subscription.token) }
    }
}

// MARK: - Publishing

extension EventHub {
    /// Publishes an event to every subscriber and keeps it for reconnecting clients.
    ///
    /// The event is encoded once; every subscriber receives the same bytes. A subscriber whose
    /// write fails is removed and finished. Calls from several threads are serialized.
    /// - Returns: The event's id, greater than every id issued before.
    @discardableResult
    public func publish(event: String, data: String) -> UInt64 {
        let (id, failed) = history.withLock { history in
            let id = history.lastID + 1
            let bytes = ServerSentEvent(event: event, id: id, data: data).encoded()
            history.append(bytes)
            return (id, pacedBroadcast(bytes))
        }
        published.raise(to: id)
        drop(failed)
        return id
    }

    /// Publishes an event numbered elsewhere (a store that several servers share numbers their
    /// events, so a client may reconnect to any of them): as ``publish(event:data:)``, with `id`
    /// in place of the next id. Such ids increase but may jump (a store's new leader numbers from
    /// the time), so the caller says whether events were numbered between `lastEventID` and `id`
    /// that this hub never got: after such a gap the events held are dropped, so a client that
    /// reconnects from before it gets a snapshot. A client naming an id the jump skipped gets a
    /// snapshot either way. An id not after `lastEventID` is ignored.
    /// - Returns: Whether the event was published.
    @discardableResult
    public func publish(event: String, data: String, id: UInt64, afterGap: Bool) -> Bool {
        var isPublished = false
        publishTogether { publish in isPublished = publish(event, data, id, afterGap) }
        return isPublished
    }

    /// Publishes events numbered elsewhere as one step, as ``publish(event:data:id:afterGap:)``
    /// publishes each: `body` prepares what a snapshot would hold and hands over the events, in
    /// order, through the function it gets, and no client subscribes meanwhile. So a client's
    /// opening snapshot holds all of them or none, and its id names the same document on every
    /// server that publishes the same events. The function `body` gets says whether it published
    /// each. `body` must not call back into this hub.
    public func publishTogether(
        _ body: (_ publish: (_ event: String, _ data: String, _ id: UInt64, _ afterGap: Bool) -> Bool) -> Void
    ) {
        // A client that failed once is written to by the next events until it is dropped.
        var failed: [UInt64: Subscriber] = [:]
        let newest: UInt64 = history.withLock { history in
            body { event, data, id, afterGap in
                guard id > history.lastID else { return false }
                let bytes = ServerSentEvent(event: event, id: id, data: data).encoded()
                history.append(bytes, id: id, afterGap: afterGap)
                for subscriber in pacedBroadcast(bytes) { failed[subscriber.token] = subscriber }
                return true
            }
            return history.lastID
        }
        published.raise(to: newest)
        drop(Array(failed.values))
    }

    /// Waits until event `id` or a later one is published (true), or `limit` passes (false).
    public func waitForEvent(_ id: UInt64, within limit: Duration) async -> Bool {
        await published.wait(for: id, within: limit)
    }

    /// Sends an event without an id to the clients connected now, and keeps nothing: news of this
    /// server alone (in a cluster, the store that numbers events cannot be reached), which a page
    /// that connects later finds in the state document instead.
    public func announce(event: String, data: String) {
        let failed = history.withLock { _ in
            pacedBroadcast(ServerSentEvent(event: event, data: data).encoded())
        }
        drop(failed)
    }

    /// `broadcast`, writing or enqueuing as `pacing` says. Called with `history` held, so
    /// broadcasts are timed one after another.
    private func pacedBroadcast(_ bytes: [UInt8]) -> [Subscriber] {
        let start = ContinuousClock.now
        let writes = pacing.withLock { $0.writes(at: start) }
        let failed = broadcast(bytes, writers: configuration.broadcastWriters, enqueue: !writes)
        pacing.withLock { $0.record(from: start, to: .now, wrote: writes) }
        return failed
    }

    /// A subscriber, by its token.
    typealias Subscriber = (token: UInt64, sink: any EventSink)

    /// Writes `bytes` to every subscriber, returning those whose write failed. Many subscribers
    /// are shared out among up to `writers` threads: a write is mostly the kernel's TCP send
    /// (over loopback the receiver's side of it too), so one thread would leave the other
    /// processors idle while thousands of streams wait their turn (docs/PERFORMANCE-FINDINGS.md, finding g).
    func broadcast(_ bytes: [UInt8], writers: Int, enqueue: Bool = false) -> [Subscriber] {
        // A copy-on-write copy: one reference count, and the lock is free while writing.
        let sinks = registry.withLock { $0.sinks }
        let writers = min(writers, sinks.count / Self.subscribersPerWriter)
        guard writers > 1 else { return Self.write(bytes, to: sinks, enqueue: enqueue) }
        let subscribers = Array(sinks)
        let failed = Locked<[Subscriber]>([])
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let share = subscribers.count * writer / writers..<subscribers.count * (writer + 1) / writers
            let lost = Self.write(bytes, to: subscribers[share], enqueue: enqueue)
            if !lost.isEmpty {
                failed.withLock { $0 += lost }
            }
        }
        return failed.current
    }

    /// Fewer subscribers than this per thread are written by one thread: handing work to another
    /// costs more than it saves.
    static let subscribersPerWriter = 512

    private static func write<Subscribers: Sequence>(
        _ bytes: [UInt8], to subscribers: Subscribers, enqueue: Bool
    ) -> [Subscriber] where Subscribers.Element == (key: UInt64, value: any EventSink) {
        var failed: [Subscriber] = []
        for (token, sink) in subscribers where !(enqueue ? sink.enqueue(bytes) : sink.write(bytes)) {
            failed.append((token, sink))
        }
        return failed
    }

    /// Removes and finishes subscribers whose write failed, even when their close handler has
    /// already unsubscribed them. Called with no lock held: finishing a stream may run a
    /// handler that unsubscribes.
    func drop(_ failed: [Subscriber]) {
        guard !failed.isEmpty else { return }
        registry.withLock { registry in
            for subscriber in failed {
                _ = registry.remove(subscriber.token)
            }
        }
        for subscriber in failed {
            subscriber.sink.finish()
        }
    }
}

// MARK: - Lifecycle: pings and closing

extension EventHub {
    /// Starts writing a `: ping` comment to every subscriber every `pingInterval`, dropping
    /// those whose write fails. Does nothing when already pinging or closed.
    public func startPinging() {
        let interval = configuration.pingInterval
        precondition(interval > .zero, "the ping interval must be positive")
        pinger.withLock { task in
            guard task == nil, !registry.withLock({ $0.isClosed }) else { return }
            // Weak, so a hub nobody closed can still be freed; the loop then ends.
            task = Task { [weak self] in
                while (try? await Task.sleep(for: interval)) != nil {
                    guard let self else { return }
                    // One writer: nobody waits for a ping, so it goes at the least CPU.
                    drop(broadcast(Self.pingBytes, writers: 1))
                }
            }
        }
    }

    /// Stops pinging, finishes and removes every subscriber, and makes later `subscribe` calls
    /// finish their sink at once. Publishing still numbers and keeps events.
    public func close() {
        let sinks = pinger.withLock { task in
            task?.cancel()
            task = nil
            return registry.withLock { $0.close() }
        }
        for sink in sinks {
            sink.finish()
        }
    }
}

// MARK: - Response headers

extension EventHub {
    /// The headers of an event-stream response: the media type, no caching, and no buffering by
    /// a reverse proxy (nginx honours `X-Accel-Buffering`), so each event leaves at once.
    public static let responseHeaders: [(name: String, value: String)] = [
        (name: "Content-Type", value: "text/event-stream; charset=utf-8"),
        (name: "Cache-Control", value: "no-store"),
        (name: "X-Accel-Buffering", value: "no"),
    ]
}

// MARK: - Wall clock

/// The real-time clock, which numbers a hub's first event when its configuration does not (and
/// a cluster's leader its first, unless the store holds a later id).
public enum WallClock {
    /// Microseconds since 1970 (UTC), from the system's real-time clock.
    public static func microsecondsSince1970() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
    }
}
