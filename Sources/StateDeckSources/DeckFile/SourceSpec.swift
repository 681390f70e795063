import FoundationEssentials
import HTTPClient
import StateDeck

/// A panel's one source of info: in a deck file, the panel's one key among `http`, `tcp`, `dns`,
/// `tls`, `ping`, `domain`, `docker`, `smtp`, `websocket`, `grpc`, `postgres`, `mysql`, `redis`, `command`,
/// `file` and `heartbeat`.
public enum SourceSpec: Sendable, Hashable {
    case http(HTTPSource)
    case tcp(TCPSource)
    case dns(DNSSource)
    case tls(TLSSource)
    case ping(PingSource)
    /// A domain's registration, from its registry's RDAP server.
    case domain(DomainSource)
    /// A container, from its engine's API over a unix socket.
    case docker(DockerSource)
    /// A mail server's greeting, extensions and STARTTLS certificate.
    case smtp(SMTPSource)
    /// A WebSocket's upgrade, and the answer to a message.
    case websocket(WebSocketSource)
    /// A gRPC server's standard health check.
    case grpc(GRPCSource)
    /// A query's answer from a PostgreSQL server.
    case postgres(PostgresSource)
    /// A query's answer from a MariaDB or MySQL server.
    case mysql(MySQLSource)
    /// A command's reply from a Redis server.
    case redis(RedisSource)
    case command(CommandSource)
    case file(FileSource)
    /// Told by a job's pings; it loads nothing.
    case heartbeat(HeartbeatSource)

    /// Loads once; throws a `PanelError`. A heartbeat's deck never asks it to.
    public func load() async throws -> Info {
        switch self {
        case .http(let source): try await source.load()
        case .tcp(let source): try await source.load()
        case .dns(let source): try await source.load()
        case .tls(let source): try await source.load()
        case .ping(let source): try await source.load()
        case .domain(let source): try await source.load()
        case .docker(let source): try await source.load()
        case .smtp(let source): try await source.load()
        case .websocket(let source): try await source.load()
        case .grpc(let source): try await source.load()
        case .postgres(let source): try await source.load()
        case .mysql(let source): try await source.load()
        case .redis(let source): try await source.load()
        case .command(let source): try await source.load()
        case .file(let source): try await source.load()
        case .heartbeat: throw Heartbeat.loadsNothing
        }
    }

    /// Its key in a deck file: `http`, `tcp`, `dns`, `tls`, `ping`, `domain`, `docker`, `smtp`, `websocket`,
    /// `grpc`, `postgres`, `mysql`, `redis`, `command`, `file` or `heartbeat`.
    public var kind: String {
        switch self {
        case .http: "http"
        case .tcp: "tcp"
        case .dns: "dns"
        case .tls: "tls"
        case .ping: "ping"
        case .domain: "domain"
        case .docker: "docker"
        case .smtp: "smtp"
        case .websocket: "websocket"
        case .grpc: "grpc"
        case .postgres: "postgres"
        case .mysql: "mysql"
        case .redis: "redis"
        case .command: "command"
        case .file: "file"
        case .heartbeat: "heartbeat"
        }
    }

    /// The source's own limit, nil for a file (read at once) and a heartbeat (never loaded).
    public var timeout: Duration? {
        switch self {
        case .http(let source): source.timeout
        case .tcp(let source): source.timeout
        case .dns(let source): source.timeout
        case .tls(let source): source.timeout
        case .ping(let source): source.checkTimeout
        case .domain(let source): source.timeout
        case .docker(let source): source.timeout
        case .smtp(let source): source.timeout
        case .websocket(let source): source.timeout
        case .grpc(let source): source.timeout
        case .postgres(let source): source.timeout
        case .mysql(let source): source.timeout
        case .redis(let source): source.timeout
        case .command(let source): source.command.timeout
        case .file, .heartbeat: nil
        }
    }
}

// MARK: - Reading

extension SourceSpec {
    /// The keys that name a panel's source, one of which a panel gives.
    static let keys = [
        "http", "tcp", "dns", "tls", "ping", "domain", "docker", "smtp", "websocket", "grpc", "postgres", "mysql", "redis",
        "command", "file", "heartbeat",
    ]

    /// The one source key of the panel `map`; `timeout` is the limit of a source that gives none.
    init?(readingOneOf map: ConfigMapping, timeout: Duration) {
        let keys = map.present(Self.keys)
        guard let key = keys.first, let node = map[key] else {
            map.node.problem("needs a source: one of \(Self.keys.joined(separator: ", "))")
            return nil
        }
        for extra in keys.dropFirst() {
            map[extra]?.problem("a panel has exactly one source, and this one already has \(key)")
        }
        let source: SourceSpec? = switch key {
        case "http": HTTPSource(reading: node, timeout: timeout).map(SourceSpec.http)
        case "tcp": TCPSource(reading: node, timeout: timeout).map(SourceSpec.tcp)
        case "dns": DNSSource(reading: node, timeout: timeout).map(SourceSpec.dns)
        case "tls": TLSSource(reading: node, timeout: timeout).map(SourceSpec.tls)
        case "ping": PingSource(reading: node).map(SourceSpec.ping)
        case "domain": DomainSource(reading: node, timeout: timeout).map(SourceSpec.domain)
        case "docker": DockerSource(reading: node, timeout: timeout).map(SourceSpec.docker)
        case "smtp": SMTPSource(reading: node, timeout: timeout).map(SourceSpec.smtp)
        case "websocket": WebSocketSource(reading: node, timeout: timeout).map(SourceSpec.websocket)
        case "grpc": GRPCSource(reading: node, timeout: timeout).map(SourceSpec.grpc)
        case "postgres": PostgresSource(reading: node, timeout: timeout).map(SourceSpec.postgres)
        case "mysql": MySQLSource(reading: node, timeout: timeout).map(SourceSpec.mysql)
        case "redis": RedisSource(reading: node, timeout: timeout).map(SourceSpec.redis)
        case "command": CommandSource(reading: node, timeout: timeout).map(SourceSpec.command)
        case "heartbeat": HeartbeatSource(reading: node).map(SourceSpec.heartbeat)
        default: FileSource(reading: node).map(SourceSpec.file)
        }
        guard keys.count == 1, let source else { return nil }
        self = source
    }
}

// MARK: - http

extension HTTPSource {
    static let keys = ["url", "method", "headers", "body", "timeout", "expect", "expectStatus", "check", "fields"]
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// `{ url, method, headers, body, timeout, expect, expectStatus, check, fields }`; `expectStatus`
    /// and `check` are shorthands of conditions, before and after those of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let url = map.required("url")?.httpURL()
        let method = map["method"]?.method()
        let headers = map["headers"]?.headers()
        let limit = map["timeout"]?.duration()
        let expected = map["expectStatus"]?.statusSet().map(ResponseCondition.status)
        let expect = map["expect"].flatMap { ResponseCondition.list(reading: $0, timeout: limit ?? timeout) }
        let check = map["check"].flatMap(ResponseCondition.init(readingCheck:))
        let picks = map["fields"]?.entries()?.compactMap { entry in
            entry.value.pointer().map { Pick(label: entry.key, pointer: $0) }
        }
        let body = map["body"]?.string()
        guard let url else { return nil }
        self.init(url: url, method: method ?? "GET", headers: headers ?? [:], body: body, timeout: limit ?? timeout,
                  conditions: [expected].compactMap(\.self) + (expect ?? []) + [check].compactMap(\.self), picks: picks ?? [])
        let written = map["url"]?.writtenText
        writtenURL = written == url.absoluteString ? nil : written
    }
}

extension ConfigNode {
    func httpURL() -> URL? {
        guard let text = string() else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else {
            problem("must be an http or https URL")
            return nil
        }
        return url
    }

    /// A mapping of header fields, each checked by ``headerValue(named:)``.
    func headers() -> [String: String]? {
        entries()?.reduce(into: [String: String]()) { headers, entry in
            headers[entry.key] = entry.value.headerValue(named: entry.key)
        }
    }

    /// A header field's value, `${VAR}`s substituted. A line break would end the field and start
    /// another one, so it is refused, as is a name that is not an HTTP token.
    fileprivate func headerValue(named name: String) -> String? {
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

    fileprivate func method() -> String? {
        guard let text = string()?.uppercased() else { return nil }
        guard HTTPSource.methods.contains(text) else {
            problem("\(text) is not a method (\(HTTPSource.methods.joined(separator: ", ")))")
            return nil
        }
        return text
    }
}

// MARK: - tcp

extension TCPSource {
    /// `{ host, port, timeout, expect }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: ["host", "port", "timeout", "expect"]) else { return nil }
        let host = map.required("host")?.text()
        let port = map.required("port")?.int(in: 1...65_535)
        let limit = map["timeout"]?.duration()
        let expect = map["expect"].flatMap { ConnectionCondition.list(reading: $0, timeout: limit ?? timeout) }
        guard let host, let port else { return nil }
        self.init(host: host, port: port, timeout: limit ?? timeout, conditions: expect ?? [])
    }
}

// MARK: - ping

extension PingSource {
    /// `{ host, count, timeout, expect }`; its own defaults (3 requests, 2 s each), not the deck's
    /// timeout, which is a whole exchange's.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["host", "count", "timeout", "expect"]) else { return nil }
        let host = map.required("host")?.text()
        let count = map["count"]?.int(in: 1...10)
        let limit = map["timeout"]?.duration(atLeast: .milliseconds(1))
        let expect = map["expect"].flatMap { PingCondition.list(reading: $0, timeout: limit ?? Self.defaultTimeout) }
        guard let host else { return nil }
        self.init(host: host, count: count ?? 3, timeout: limit ?? Self.defaultTimeout, conditions: expect ?? [])
    }
}

// MARK: - command

extension CommandSource {
    /// `{ run | shell, workingDirectory, environment, timeout, output }`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: CommandSpec.keys + ["output"]) else { return nil }
        let output = map["output"]?.choice(of: OutputFormat.allCases)
        guard let command = CommandSpec(reading: map, timeout: timeout) else { return nil }
        self.init(command: command, output: output ?? .auto)
    }
}

extension CommandSpec {
    static let keys = ["run", "shell", "workingDirectory", "environment", "timeout"]

    /// A command from the keys of `map`: `run` (the program and its arguments) or `shell` (a
    /// script for `sh -c`), and the optional folder (the deck file's by default), environment and
    /// timeout. `placeholders` are the values it is handed when it runs, in their variables: an
    /// argument (the script too) that writes one is refused, as no value is filled into one.
    init?(reading map: ConfigMapping, timeout: Duration, placeholders: [CommandPlaceholder] = []) {
        let reader = map.node.reader
        let programs = map.present(["run", "shell"])
        if programs.count > 1 {
            map["shell"]?.problem("give either run (a program and its arguments) or shell (a script), not both")
        }
        let arguments: [String]?
        // `filled`: each argument, `${VAR}` substituted, beside its node, where a placeholder in
        // it is refused. `written`: the arguments as the file writes them, to be shown.
        var filled: [(node: ConfigNode, argument: String)] = []
        let written: [String]?
        if let run = map["run"] {
            arguments = run.strings()
            written = arguments == nil ? nil : run.list()?.compactMap(\.writtenText)
            if arguments?.isEmpty == true { run.problem("needs at least the program to run") }
            if let arguments, let nodes = run.list() { filled = Array(zip(nodes, arguments)) }
        } else if let shell = map["shell"], let script = shell.text() {
            arguments = CommandSpec.shell(script).arguments
            written = shell.writtenText.map { CommandSpec.shell($0).arguments }
            filled = [(shell, script)]
        } else {
            written = nil
            map.node.problem("needs run (a program and its arguments) or shell (a script)")
            arguments = nil
        }
        var refused = false
        for (node, argument) in filled {
            let named = CommandPlaceholder.written(in: argument, of: placeholders)
            guard !named.isEmpty else { continue }
            node.problem(CommandPlaceholder.refusal(of: named))
            refused = true
        }
        let folder = map["workingDirectory"]?.text().map(reader.resolve) ?? reader.folder
        let environment = map["environment"]?.entries()?.reduce(into: [String: String]()) { variables, entry in
            variables[entry.key] = entry.value.string()
        }
        let limit = map["timeout"]?.duration() ?? timeout
        guard let arguments, !arguments.isEmpty, programs.count == 1, !refused else { return nil }
        self.init(arguments: arguments, workingDirectory: folder, environment: environment ?? [:], timeout: limit)
        // Kept only when a `${VAR}` was substituted: the same command written alike is the same spec.
        writtenArguments = written == arguments ? nil : written
    }
}

// MARK: - file

extension FileSource {
    /// `{ path, format, watch }`; a relative path starts at the deck file's folder.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["path", "format", "watch"]) else { return nil }
        let path = map.required("path")?.text()
        let format = map["format"]?.choice(of: OutputFormat.allCases)
        let watch = map["watch"]?.bool()
        guard let path else { return nil }
        self.init(path: node.reader.resolve(path), format: format ?? .auto, watch: watch ?? true)
    }
}

// MARK: - heartbeat

extension HeartbeatSource {
    /// `{ period, grace, timezone, key }` or `{ schedule, grace, timezone, key }`.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["period", "schedule", "timezone", "grace", "key"]) else { return nil }
        let expectations = map.present(["period", "schedule"])
        if expectations.isEmpty {
            map.node.problem("needs period (such as 1h) or schedule (a cron line such as \"0 3 * * *\")")
        } else if expectations.count > 1 {
            map["schedule"]?.problem("give either period or schedule, not both")
        }
        let expectation: Expectation? = if let period = map["period"] {
            period.duration(atLeast: .seconds(1)).map(Expectation.every)
        } else {
            map["schedule"]?.cronSchedule().map(Expectation.schedule)
        }
        let grace = map.required("grace")?.duration(atLeast: .seconds(1))
        let zone = map["timezone"].map { $0.zoneRules() } ?? node.reader.localZone
        let key = map["key"].map { $0.pingKey() } ?? .some(nil)
        guard expectations.count == 1, let expectation, let grace, let zone, let key else { return nil }
        self.init(expectation: expectation, grace: grace, zone: zone, key: key)
    }
}

extension ConfigNode {
    func cronSchedule() -> CronSchedule? {
        guard let text = text() else { return nil }
        do {
            return try CronSchedule(parsing: text)
        } catch {
            problem("\"\(text)\" is not a cron schedule: \(error.description)")
            return nil
        }
    }

    func zoneRules() -> ZoneRules? {
        guard let name = text() else { return nil }
        switch reader.zone(named: name) {
        case .success(let zone): return zone
        case .failure(let error):
            problem(error.description)
            return nil
        }
    }

    fileprivate func pingKey() -> String?? {
        guard let key = text() else { return nil }
        guard HeartbeatSource.isKey(key) else {
            problem("a ping key is at least \(HeartbeatSource.shortestKey) letters, digits, - or _ (it is the ping's only credential)")
            return nil
        }
        return .some(key)
    }
}
