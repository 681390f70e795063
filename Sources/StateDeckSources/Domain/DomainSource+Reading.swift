import FoundationEssentials
import StateDeck

extension DomainSource {
    static let keys = ["name", "warnBefore", "server", "timeout"]

    /// `{ name, warnBefore, server, timeout }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let name = map.required("name")?.domainName()
        let warnBefore = map["warnBefore"].map { $0.duration(atLeast: .zero) } ?? .seconds(30 * 86_400)
        let server = map["server"].map { $0.rdapServer() } ?? .some(nil)
        let limit = map["timeout"]?.duration()
        guard let name, let warnBefore, let server else { return nil }
        self.init(name: name, warnBefore: warnBefore, server: server, timeout: limit ?? timeout)
    }
}

extension ConfigNode {
    /// A domain name of two labels or more, each letters, digits and dashes (an internationalized
    /// one in its `xn--` form), lowercased and without a final dot: the form RDAP servers look up.
    fileprivate func domainName() -> String? {
        guard let text = text() else { return nil }
        let name = (text.hasSuffix(".") ? String(text.dropLast()) : text).lowercased()
        guard name.unicodeScalars.allSatisfy(\.isASCII) else {
            problem("\"\(text)\" is not an ASCII domain name: write an internationalized one in its xn-- form")
            return nil
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let isLabel = { (label: Substring) in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
        guard name.count <= 253, labels.allSatisfy(isLabel) else {
            problem("\"\(text)\" is not a domain name: labels of letters, digits and dashes, like example.com")
            return nil
        }
        guard labels.count > 1 else {
            problem("\"\(text)\" is a top-level domain, not a registered one like \(name == "com" ? "example.com" : "example.\(name)")")
            return nil
        }
        return name
    }

    /// An http or https URL, the base of an RDAP server's queries: ends in `/`.
    fileprivate func rdapServer() -> URL?? {
        guard let url = httpURL() else { return nil }
        let text = url.absoluteString
        guard url.query == nil, url.fragment == nil, let base = URL(string: text.hasSuffix("/") ? text : text + "/") else {
            problem("must be an RDAP server's base URL, without a query, like https://rdap.example.net/")
            return nil
        }
        return .some(base)
    }
}
