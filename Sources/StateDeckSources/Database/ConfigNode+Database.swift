extension ConfigMapping {
    /// The required `url` of a database source, one of `schemes`, its port `defaultPort` unless it
    /// gives one; `refusal` says why a URL that reads cannot be the source's. A problem never
    /// quotes the URL: its password may be a secret substituted into it.
    func databaseURL(schemes: [String], defaultPort: Int, refusal: (DatabaseURL) -> String?) -> DatabaseURL? {
        guard let node = required("url"), let text = node.text() else { return nil }
        do {
            let url = try DatabaseURL(parsing: text, schemes: schemes, defaultPort: defaultPort)
            if let reason = refusal(url) {
                node.problem(reason)
                return nil
            }
            return url
        } catch {
            node.problem(error.message)
            return nil
        }
    }
}

/// What a postgres or mysql source reads, `{ url, query, timeout, expect }`: the query is
/// `select 1` unless given, the timeout the deck's.
struct QueryReading {
    static let keys = ["url", "query", "timeout", "expect"]

    let url: DatabaseURL
    let query: String
    let timeout: Duration
    let conditions: [QueryCondition]

    init?(_ node: ConfigNode, timeout: Duration, schemes: [String], defaultPort: Int, refusal: (DatabaseURL) -> String?) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let url = map.databaseURL(schemes: schemes, defaultPort: defaultPort, refusal: refusal)
        let query = map["query"].map { $0.text() } ?? "select 1"
        let limit = map["timeout"]?.duration()
        let expect = map["expect"].flatMap { QueryCondition.list(reading: $0, timeout: limit ?? timeout) }
        guard let url, let query else { return nil }
        self.url = url
        self.query = query
        self.timeout = limit ?? timeout
        conditions = expect ?? []
    }
}
