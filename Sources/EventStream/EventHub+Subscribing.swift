extension EventHub {
    /// Registers a client: writes `retry:`, catches it up, then sends it every new event.
    ///
    /// When `lastEventID` is an id this hub issued and every event after it is still held,
    /// the client gets exactly those events; otherwise (no id, not a number, too old, or newer
    /// than anything issued) it gets one `snapshot` event whose id is the hub's `lastEventID`.
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
        let token: UInt64? = history.withLock { history in
            guard !registry.withLock({ $0.isClosed }), sink.write(retryBytes) else { return nil }
            if let missed = lastEventID.flatMap({ UInt64($0) }).flatMap(history.events(after:)) {
                for bytes in missed {
                    guard sink.write(bytes) else { return nil }
                }
            } else {
                let state = ServerSentEvent(event: "snapshot", id: history.lastID, data: snapshot(history.lastID))
                guard sink.write(state.encoded()) else { return nil }
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
