import FoundationEssentials

/// One stretch of maintenance: a deck's window as it holds once, or a window started through the
/// API. The window document of PROTOCOL.md; a history store keeps those started through the API
/// and those ended early, so a restart inside one continues it.
public struct MaintenanceSpan: Sendable, Equatable {
    /// Where the window was declared.
    public enum Source: String, Sendable, Equatable {
        /// The deck (a deck file's `maintenance:`).
        case deck
        /// `POST /api/maintenance`.
        case api
    }

    /// The window's id: a deck's windows keep theirs at each stretch, so with `from` it names one.
    public var id: String
    public var reason: String
    public var panels: [String]
    public var from: Date
    /// When it ends, or ended when ended early.
    public var until: Date
    public var source: Source
    /// A recurring window's schedule, as it reads: "0 3 * * 0 (Europe/Paris)".
    public var schedule: String?

    public init(id: String, reason: String, panels: [String], from: Date, until: Date, source: Source,
                schedule: String? = nil) {
        self.id = id
        self.reason = reason
        self.panels = panels
        self.from = from
        self.until = until
        self.source = source
        self.schedule = schedule
    }

    /// Whether it holds at `date`.
    public func holds(at date: Date) -> Bool { from <= date && date < until }

    /// What a panel it covers carries in its state.
    var mark: MaintenanceMark { MaintenanceMark(id: id, reason: reason, until: until) }
}

extension MaintenanceSpan: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, reason, panels, from, until, source, schedule
    }

    /// Times as the rest of the state writes them; `schedule` only for a recurring window.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(reason, forKey: .reason)
        try container.encode(panels, forKey: .panels)
        try container.encode(DeckJSON.timestamp(from), forKey: .from)
        try container.encode(DeckJSON.timestamp(until), forKey: .until)
        try container.encode(source.rawValue, forKey: .source)
        try container.encodeIfPresent(schedule, forKey: .schedule)
    }

    /// Read back from its document (a replica following the `window` event), times as the
    /// decoder's strategy reads them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let source = try container.decode(String.self, forKey: .source)
        guard let known = Source(rawValue: source) else {
            throw DecodingError.dataCorruptedError(forKey: .source, in: container, debugDescription: "no source '\(source)'")
        }
        self.init(id: try container.decode(String.self, forKey: .id), reason: try container.decode(String.self, forKey: .reason),
                  panels: try container.decode([String].self, forKey: .panels), from: try container.decode(Date.self, forKey: .from),
                  until: try container.decode(Date.self, forKey: .until), source: known,
                  schedule: try container.decodeIfPresent(String.self, forKey: .schedule))
    }
}
