extension MySQLSource {
    /// `{ url, query, timeout, expect }`; the query is `select 1` unless given.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let read = QueryReading(node, timeout: timeout, schemes: ["mysql", "mariadb"], defaultPort: Self.defaultPort, refusal: { url in
            url.parameters.isEmpty ? nil : "takes no settings after ?: give the user, password, host, port and database in the URL itself"
        }) else { return nil }
        self.init(url: read.url, query: read.query, timeout: read.timeout, conditions: read.conditions)
    }
}
