#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ServerCore {
    /// How long stopping waits for resumed connections to send their last bytes.
    static let windDownLimit = Duration.milliseconds(250)

    /// Readies the daemon to be stopped. `MHD_stop_daemon` aborts the process while any
    /// connection is suspended, and closes connections without sending what they still have,
    /// so first end every stream and deferred wait, resume those connections, and give them a
    /// bounded moment to send the end of the stream or the 503.
    func windDown() {
        deadlines?.stop()
        hangups?.stop()
        let (streams, deferred) = registry.withLock { registry in
            // From here on, new streams are finished at once and deferred replies refused.
            registry.shuttingDown = true
            return (Array(registry.streams.values), Array(registry.deferred.values))
        }
        // Streams busy sending to slow clients are not waited for; the daemon closes them.
        let resumed = streams.filter { $0.end() }
        deferred.forEach { $0.cancelDeferred() }
        let deadline = ContinuousClock.now + Self.windDownLimit
        while ContinuousClock.now < deadline {
            let pending = registry.withLock { !$0.deferred.isEmpty } || !resumed.allSatisfy(\.hasEnded)
            guard pending else { return }
            usleep(1000)
        }
        logger.debug("stopping with connections still sending")
    }
}
