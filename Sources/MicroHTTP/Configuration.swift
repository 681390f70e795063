extension HTTPServer {
    /// Every libmicrohttpd limit StateDeck relies on, set explicitly, with defaults safe for a
    /// local dashboard (libmicrohttpd's own defaults bind every interface and never time out).
    public struct Configuration: Sendable {
        /// The one address to bind: IPv4 or IPv6 literal (`::1`), or a name resolved with
        /// `getaddrinfo` (its first answer is bound).
        public var host = "127.0.0.1"
        /// 0 binds any free port; `start()` returns the one chosen.
        public var port = 0
        /// Largest request body; larger ones get 413 (by `Content-Length` before any body byte
        /// is read, or as soon as a chunked body grows past it).
        public var maxBodySize = 64 * 1024
        /// Longest request target (path and query, in bytes as received); longer ones get 414
        /// in the JSON error shape, and the connection is closed. nginx's default bounds a
        /// request line to the same 8 KiB.
        public var maxTargetSize = 8 * 1024
        /// Largest request head: request line and header fields, in bytes as received, up to the
        /// blank line. Larger ones get 431 in the JSON error shape, and the connection is closed.
        /// A browser's heads, cookies included, take a few KiB; it leaves the pool room to answer.
        public var maxHeadSize = 24 * 1024
        /// Connections served at once. When full, even plain API requests wait, so the default
        /// is as many as the file-descriptor limit allows (see `FileDescriptorLimit`).
        public var connectionLimit = FileDescriptorLimit.defaultConnectionLimit()
        /// Connections per client address; 0 means no limit. Off by default: every browser tab
        /// and script on this machine shares 127.0.0.1, so a per-IP cap would count them all.
        public var perIPConnectionLimit = 0
        /// Idle time after which a connection is closed (rounded up to whole seconds; zero means
        /// never). A stream waiting for its next write is suspended and exempt, so idle event
        /// streams stay open; what frees their dead clients is the next write (the SSE ping).
        ///
        /// It also bounds how long one request may take to arrive whole, head and body, counted
        /// from the connection opening or the previous answer (see `RequestDeadlines`): a client
        /// sending a byte now and then never goes idle, yet cannot hold its connection past this.
        public var connectionTimeout: Duration = .seconds(30)
        /// Memory pool per connection. libmicrohttpd holds the whole request head in it, with 64
        /// bytes more per header field (and `Cookie` twice); a head that does not fit gets its
        /// own 414 or 431 page, in HTML and without the standard headers, which nothing can
        /// change. 32 KiB (libmicrohttpd's default) gives heads up to about 31 KiB of usual
        /// fields the JSON refusal. A larger pool would push the library's page further out, but
        /// 0.9.75 zeroes the whole pool after each answer on a kept-alive connection: an idle one
        /// holds all of it, and each request pays for the zeroing (docs/PERFORMANCE-FINDINGS.md,
        /// finding i). A stream waiting for events keeps a page or two of it (`IdlePages`).
        public var connectionMemoryLimit = 32 * 1024
        /// libmicrohttpd polling threads; 2 fanned one event out to thousands of streams about
        /// twice as fast as 1.
        public var threadPoolSize = 2
        /// Bytes a stream may hold for a client that is not reading before it is dropped;
        /// the capacity the server layer gives `ResponseStream(capacity:)`.
        public var streamQueueCapacity = 256 * 1024
        /// Headers every response carries, the server's own answers included (400 for a bad
        /// target or framing, 413, 414, 431, 503 while stopping); a response that sets one keeps
        /// its own. libmicrohttpd's own error pages (505, some 400s, and 414 or 431 for a head
        /// past the connection's memory) cannot carry them.
        public var standardHeaders = HTTPHeaders()

        public init() {}
    }
}
