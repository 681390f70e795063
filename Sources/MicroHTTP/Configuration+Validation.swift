extension HTTPServer.Configuration {
    /// Refuses values libmicrohttpd would misread (its options are unsigned C integers).
    func validate() throws(HTTPServerError) {
        let checks: [(Bool, String)] = [
            ((0...65535).contains(port), "port \(port) is not in 0...65535"),
            (maxBodySize >= 0, "maxBodySize must not be negative"),
            (maxTargetSize > 0, "maxTargetSize must be positive"),
            (maxHeadSize > 0, "maxHeadSize must be positive"),
            // Past the pool, libmicrohttpd answers before the limit could be checked.
            (maxHeadSize < connectionMemoryLimit, "maxHeadSize must be below connectionMemoryLimit"),
            (connectionLimit > 0, "connectionLimit must be positive"),
            (perIPConnectionLimit >= 0, "perIPConnectionLimit must not be negative"),
            (connectionTimeout >= .zero, "connectionTimeout must not be negative"),
            (connectionMemoryLimit >= 4096, "connectionMemoryLimit must be at least 4096 bytes"),
            (threadPoolSize > 0, "threadPoolSize must be positive"),
            (streamQueueCapacity > 0, "streamQueueCapacity must be positive"),
        ]
        if let failed = checks.first(where: { !$0.0 }) {
            throw .invalidConfiguration(failed.1)
        }
    }

    /// `connectionTimeout` in whole seconds, rounded up so a short timeout never means none.
    var connectionTimeoutSeconds: Int {
        let (seconds, attoseconds) = connectionTimeout.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
