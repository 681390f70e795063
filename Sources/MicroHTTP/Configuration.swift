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
        /// Memory pool per connection. It bounds the request head: larger heads get 431. 20 KiB
        /// is about the least with which 0.9.75 takes a browser's request carrying an 8 KiB
        /// header line (nginx's default line limit): 18 KiB could not answer one. An open stream
        /// keeps its pool, but waiting for events it keeps only a page or two of it resident
        /// (`IdlePages`).
        public var connectionMemoryLimit = 20 * 1024
        /// libmicrohttpd polling threads; 2 fanned one event out to thousands of streams about
        /// twice as fast as 1.
        public var threadPoolSize = 2
        /// Bytes a stream may hold for a client that is not reading before it is dropped;
        /// the capacity the server layer gives `ResponseStream(capacity:)`.
        public var streamQueueCapacity = 256 * 1024
        /// Headers every response carries, the server's own answers included (400 for a bad
        /// target or framing, 413, 503 while stopping); a response that sets one keeps its own.
        /// libmicrohttpd's own error pages (431, 414, 505, some 400s) cannot carry them.
        public var standardHeaders = HTTPHeaders()

        public init() {}
    }
}
