extension TCPSource {
    /// `{ host, port, timeout }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: ["host", "port", "timeout"]) else { return nil }
        let host = map.required("host")?.text()
        let port = map.required("port")?.int(in: 1...65_535)
        let limit = map["timeout"]?.duration()
        guard let host, let port else { return nil }
        self.init(host: host, port: port, timeout: limit ?? timeout)
    }
}
