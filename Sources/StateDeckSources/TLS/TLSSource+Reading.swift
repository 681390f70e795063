import StateDeck

extension TLSSource {
    static let keys = ["host", "port", "servername", "validFor", "timeout", "trustedRoots"]

    /// `{ host, port, servername, validFor, timeout, trustedRoots }`; a relative `trustedRoots`
    /// starts at the deck file's folder.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let host = map.required("host")?.text()
        let port = map["port"].map { $0.int(in: 1...65_535) } ?? 443
        let serverName = map["servername"].map { $0.text() } ?? .some(nil)
        let validFor = map["validFor"].map { $0.duration(atLeast: .zero) } ?? .seconds(14 * 86_400)
        let limit = map["timeout"]?.duration()
        let roots = map["trustedRoots"].map { $0.text().map(node.reader.resolve) } ?? .some(nil)
        guard let host, let port, let serverName, let validFor, let roots else { return nil }
        self.init(host: host, port: port, serverName: serverName, validFor: validFor, timeout: limit ?? timeout,
                  trustedRoots: roots)
    }
}
