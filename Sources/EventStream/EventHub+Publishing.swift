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
            return (id, broadcast(bytes))
        }
        drop(failed)
        return id
    }

    /// Writes `bytes` to every subscriber, returning those whose write failed.
    func broadcast(_ bytes: [UInt8]) -> [(token: UInt64, sink: any EventSink)] {
        // A copy-on-write copy: one reference count, and the lock is free while writing.
        let sinks = registry.withLock { $0.sinks }
        var failed: [(token: UInt64, sink: any EventSink)] = []
        for (token, sink) in sinks {
            if !sink.write(bytes) {
                failed.append((token, sink))
            }
        }
        return failed
    }

    /// Removes and finishes subscribers whose write failed, even when their close handler has
    /// already unsubscribed them. Called with no lock held: finishing a stream may run a
    /// handler that unsubscribes.
    func drop(_ failed: [(token: UInt64, sink: any EventSink)]) {
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
