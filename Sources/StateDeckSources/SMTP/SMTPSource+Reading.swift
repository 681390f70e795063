import StateDeck

extension SMTPSource {
    static let keys = ["host", "port", "starttls", "validFor", "timeout", "trustedRoots"]

    /// `{ host, port, starttls, validFor, timeout, trustedRoots }`; a relative `trustedRoots`
    /// starts at the deck file's folder.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let host = map.required("host")?.text()
        let port = map["port"].map { $0.int(in: 1...65_535) } ?? 25
        let startsTLS = map["starttls"].map { $0.bool() } ?? true
        let validFor = map["validFor"].map { $0.duration(atLeast: .zero) } ?? .seconds(14 * 86_400)
        let limit = map["timeout"]?.duration()
        let roots = map["trustedRoots"].map { $0.text().map(node.reader.resolve) } ?? .some(nil)
        let plainWithCertificate = startsTLS == false && map["validFor"] != nil
        if plainWithCertificate {
            map["validFor"]?.problem("is the certificate's, which only starttls: true reads")
        }
        guard let host, let port, let startsTLS, let validFor, let roots, !plainWithCertificate else { return nil }
        self.init(host: host, port: port, startsTLS: startsTLS, validFor: validFor, timeout: limit ?? timeout,
                  trustedRoots: roots)
    }
}
