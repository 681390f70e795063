import StateDeck

extension DNSSource {
    static let keys = ["name", "type", "server", "expect", "timeout"]

    /// `{ name, type, server, expect: { contains }, timeout }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let name = map.required("name")?.text()
        let type = map.required("type")?.choice(of: DNSRecordType.allCases)
        let server = map["server"].map { $0.dnsServer() } ?? .some(nil)
        let expected = map["expect"].map { $0.expectedText() } ?? .some(nil)
        let limit = map["timeout"]?.duration()
        guard let name, let type, let server, let expected else { return nil }
        self.init(name: name, type: type, server: server, expectedText: expected, timeout: limit ?? timeout)
    }
}

extension ConfigNode {
    fileprivate func dnsServer() -> DNSServer?? {
        guard let text = text() else { return nil }
        guard let server = DNSServer(text) else {
            problem("\"\(text)\" is not a server's IP address, with an optional port (203.0.113.53, 203.0.113.53:5353, [2001:db8::53]:5353)")
            return nil
        }
        return .some(server)
    }

    /// `{ contains: text }`.
    fileprivate func expectedText() -> String?? {
        guard let map = mapping(allowing: ["contains"]), let text = map.required("contains")?.text() else { return nil }
        return .some(text)
    }
}
