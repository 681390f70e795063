import StateDeck

extension GRPCSource {
    static let keys = ["target", "service", "tls", "timeout", "trustedRoots"]

    /// `{ target, service, tls, timeout, trustedRoots }`: `target` is `host:port` as gRPC writes it
    /// (`[::1]:50051` for an IPv6 address); a relative `trustedRoots` starts at the deck file's folder.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let target = map.required("target")?.hostAndPort()
        let service = map["service"].map { $0.string() } ?? ""
        let tls = map["tls"].map { $0.bool() } ?? false
        let limit = map["timeout"]?.duration()
        let roots = map["trustedRoots"].map { $0.text().map(node.reader.resolve) } ?? .some(nil)
        guard let target, let service, let tls, let roots else { return nil }
        self.init(host: target.host, port: target.port, service: service, tls: tls, timeout: limit ?? timeout,
                  trustedRoots: roots)
    }
}

extension ConfigNode {
    /// `host:port`, `[2001:db8::1]:port` for an IPv6 address.
    func hostAndPort() -> (host: String, port: Int)? {
        guard let text = text() else { return nil }
        let refusal = "must be host:port, like localhost:50051 ([::1]:50051 for an IPv6 address), not \(text)"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65_535).contains(port) else {
            problem(refusal)
            return nil
        }
        var host = text[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains("/"), host.contains(":") == text.hasPrefix("[") else {
            problem(refusal)
            return nil
        }
        return (String(host), port)
    }
}
