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
