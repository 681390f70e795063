import CPostgres

extension PostgresSource {
    /// `{ url, query, timeout, expect }`; the query is `select 1` unless given.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let read = QueryReading(node, timeout: timeout, schemes: ["postgres", "postgresql"], defaultPort: Self.defaultPort,
                                      refusal: Self.refusedSetting) else { return nil }
        self.init(url: read.url, query: read.query, timeout: read.timeout, conditions: read.conditions)
    }

    /// Why a setting in the URL's query cannot be: one libpq does not know (`PQconndefaults`
    /// lists those it does), one the URL says elsewhere, or one the check sets itself.
    private static func refusedSetting(in url: DatabaseURL) -> String? {
        let own = ["host", "hostaddr", "port", "user", "password", "dbname", "options", "application_name"]
        for parameter in url.parameters {
            if own.contains(parameter.name) {
                return "sets \(parameter.name) in its query: write the user, password, host, port and database in the URL itself; StateDeck sets the rest"
            }
            if !settingNames.contains(parameter.name) {
                let suggestion = parameter.name.closestMatch(in: settingNames).map { " (did you mean \($0)?)" } ?? ""
                return "has \(parameter.name) in its query, which is no libpq setting\(suggestion), such as sslmode or connect_timeout"
            }
        }
        return nil
    }

    /// The settings libpq knows (`PQconndefaults`).
    private static let settingNames: [String] = {
        guard let options = PQconndefaults() else { return [] }
        defer { PQconninfoFree(options) }
        var names: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            names.append(String(cString: keyword))
            option += 1
        }
        return names
    }()
}
