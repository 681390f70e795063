import Dispatch
import Locking

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
        drop(failed)
        return id
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
