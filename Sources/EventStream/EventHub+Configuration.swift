#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension EventHub {
    /// How an `EventHub` keeps history, pings and numbers its events.
    public struct Configuration: Sendable {
        /// How many of the newest events are kept for clients that reconnect with
        /// `Last-Event-ID`; one that missed more gets a snapshot instead.
        public var historyCapacity: Int
        /// How often `startPinging()` writes a `: ping` comment to every client. This keeps
        /// proxies from timing the stream out, and is how the hub notices dead clients.
        public var pingInterval: Duration
        /// Sent once to every client as `retry:`: how long the browser waits to reconnect.
        public var reconnectDelay: Duration
        /// The id of the first event (at least 1). Nil takes the microseconds since 1970 at the
        /// hub's creation, so ids a client kept from an earlier server run are older than
        /// anything this hub holds, and that client gets a snapshot rather than wrong events.
        public var firstEventID: UInt64?
        /// Threads that write one event to many subscribers together, each taking at least 512
        /// of them; by default, one per processor online. Pings take one.
        public var broadcastWriters: Int

        public init(
            historyCapacity: Int = 4096,
            pingInterval: Duration = .seconds(15),
            reconnectDelay: Duration = .seconds(2),
            firstEventID: UInt64? = nil,
            broadcastWriters: Int? = nil
        ) {
            self.historyCapacity = historyCapacity
            self.pingInterval = pingInterval
            self.reconnectDelay = reconnectDelay
            self.firstEventID = firstEventID
            self.broadcastWriters = broadcastWriters ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }
    }
}
