import StateDeck

/// Looks a name's records of one type up; the info lists them.
public struct DNSSource: Sendable, Hashable {
    /// A domain name, asked as it is (no search domains).
    public var name: String
    public var type: DNSRecordType
    /// Nil for the system's servers, those of /etc/resolv.conf.
    public var server: DNSServer?
    /// Text some record's value must contain (`expect: { contains: … }`).
    public var expectedText: String?
    /// The query's limit, every server and retransmission included.
    public var timeout: Duration

    /// A source asking for `name`'s records of `type`.
    public init(name: String, type: DNSRecordType, server: DNSServer? = nil, expectedText: String? = nil,
                timeout: Duration = .seconds(5)) {
        self.name = name
        self.type = type
        self.server = server
        self.expectedText = expectedText
        self.timeout = timeout
    }

    /// One query; throws a `PanelError`, or `CancellationError` at once when the task is cancelled.
    ///
    /// The query runs on one of a few query threads (`DNSQueries`), so a server that does not
    /// answer holds up no other panel.
    public func load() async throws -> Info {
        let outcome = try await DNSQueries.run(ResolverQuery(name: name, type: type, server: server, timeout: timeout))
        switch outcome {
        case .answered(.noError, let records) where !records.isEmpty:
            let sorted = Self.sorted(records)
            try check(sorted)
            return info(sorted)
        case .answered(.noError, _):
            throw PanelError(.notFound, failureReason: "\(name) has no \(type.rawValue) records.", detail: question)
        case .answered(.nameError, _):
            throw PanelError(.dnsNameNotFound, failureReason: "\(name) does not exist (NXDOMAIN).", detail: question)
        case .answered(.serverFailure, _):
            throw PanelError(.dnsServerFailure, failureReason: "The DNS server failed to answer for \(name) (SERVFAIL).",
                             detail: question)
        case .answered(.refused, _):
            throw PanelError(.dnsServerFailure, failureReason: "The DNS server refused to answer for \(name) (REFUSED).",
                             detail: question)
        case .answered(let code, _):
            throw PanelError(.dnsServerFailure, failureReason: "The DNS server answered \(code.name) for \(name).",
                             detail: question)
        case .timedOut:
            throw PanelError.timedOut(after: timeout, detail: "\(question): no answer")
        case .unreachable(let reason):
            throw PanelError(.unreachable, failureReason: server.map { "No DNS server answers at \($0)." }
                                 ?? "None of the system's DNS servers answers.", detail: "\(question): \(reason)")
        case .tooLarge(let reason):
            throw PanelError(.dnsAnswerTooLarge,
                             failureReason: "The answer for \(name) is too large for one UDP message, and "
                                 + (server.map { "the DNS server at \($0) does not give it over TCP." }
                                     ?? "none of the system's DNS servers gives it over TCP."),
                             recoverySuggestion: "Let the server answer DNS over TCP on its port (a firewall may block it), "
                                 + "or ask for a name with fewer records.",
                             detail: "\(question): \(reason)")
        case .unreadable(let reason):
            throw PanelError(.invalidResponse, failureReason: "The DNS answer cannot be read.", detail: "\(question): \(reason)")
        case .failed(let reason):
            throw PanelError(.unknown, failureReason: "The query could not be sent.", detail: "\(question): \(reason)")
        }
    }

    /// Records in a steady order, MX by preference: servers rotate their answers, and info that
    /// differs is a change to record and send.
    static func sorted(_ records: [DNSRecord]) -> [DNSRecord] {
        records.sorted { ($0.preference ?? 0, $0.value) < ($1.preference ?? 0, $1.value) }
    }

    /// "3 A records", the name and the server, and one item per record: its value (and an MX
    /// record's preference). Not its TTL: a caching resolver counts it down, and info that differs
    /// at every check is a change to record and send each time.
    func info(_ records: [DNSRecord]) -> Info {
        let items = records.enumerated().map { index, record in
            Info.Item(id: "\(type.rawValue.lowercased())-\(index + 1)", title: record.value,
                      subtitle: record.preference.map { "preference \($0)" })
        }
        let noun = records.count == 1 ? "record" : "records"
        return Info(summary: "\(records.count) \(type.rawValue) \(noun)",
                    fields: [Info.Field("Name", name), Info.Field("Server", serverText)], items: items)
    }

    /// Throws when `expectedText` is in no record's value, naming what came back.
    func check(_ records: [DNSRecord]) throws(PanelError) {
        guard let expectedText, !records.contains(where: { $0.value.contains(expectedText) }) else { return }
        let found = records.map(\.value).joined(separator: ", ").excerpt(limit: 300)
        throw PanelError(.checkFailed, failureReason: "No \(type.rawValue) record of \(name) contains \"\(expectedText)\": the answer was \(found).",
                         recoverySuggestion: "If the records are right, fix the panel's expect in the deck file.",
                         detail: question)
    }

    /// "MX example.com, asked of 203.0.113.53:53", for a card's detail.
    var question: String {
        "\(type.rawValue) \(name), asked of \(serverText)"
    }

    /// The server, or the system's.
    var serverText: String {
        server?.description ?? "the system's DNS servers"
    }
}
