import FoundationEssentials
import HTTPClient

extension HTTPSource {
    static let keys = ["url", "method", "headers", "body", "timeout", "expectStatus", "check", "fields"]
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// `{ url, method, headers, body, timeout, expectStatus, check, fields }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let url = map.required("url")?.httpURL()
        let method = map["method"]?.method()
        let headers = map["headers"]?.entries()?.reduce(into: [String: String]()) { headers, entry in
            headers[entry.key] = entry.value.headerValue(named: entry.key)
        }
        let expected = map["expectStatus"]?.statuses()
        let check = map["check"].flatMap(ResponseCheck.init(reading:))
        let picks = map["fields"]?.entries()?.compactMap { entry in
            entry.value.pointer().map { Pick(label: entry.key, pointer: $0) }
        }
        let body = map["body"]?.string()
        let limit = map["timeout"]?.duration()
        guard let url else { return nil }
        self.init(url: url, method: method ?? "GET", headers: headers ?? [:], body: body, timeout: limit ?? timeout,
                  expectedStatuses: expected, check: check, picks: picks ?? [])
    }
}

private extension ConfigNode {
    func httpURL() -> URL? {
        guard let text = string() else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else {
            problem("must be an http or https URL")
            return nil
        }
        return url
    }

    /// A header field's value, `${VAR}`s substituted. A line break would end the field and start
    /// another one, so it is refused, as is a name that is not an HTTP token.
    func headerValue(named name: String) -> String? {
        guard let text = string() else { return nil }
        guard HTTPFieldSyntax.isName(name) else {
            problem("must be a header name: letters, digits and !#$%&'*+-.^_`|~")
            return nil
        }
        guard HTTPFieldSyntax.isValue(text) else {
            problem("a header value cannot hold a line break")
            return nil
        }
        return text
    }

    func method() -> String? {
        guard let text = string()?.uppercased() else { return nil }
        guard HTTPSource.methods.contains(text) else {
            problem("\(text) is not a method (\(HTTPSource.methods.joined(separator: ", ")))")
            return nil
        }
        return text
    }

    /// A status, or a list of them.
    func statuses() -> Set<Int>? {
        guard case .sequence = node.kind else { return int(in: 100...599).map { [$0] } }
        let statuses = list()?.map { $0.int(in: 100...599) }
        guard let statuses, !statuses.contains(nil) else { return nil }
        return Set(statuses.compactMap(\.self))
    }
}
