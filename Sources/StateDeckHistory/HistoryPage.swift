import FoundationEssentials
import StateDeck

/// Which stored changes of a panel to list: newest first, between `from` and `to`, at most
/// `limit`, continuing after `cursor`.
public struct HistoryQuery: Sendable, Equatable {
    public static let limits = 1...500
    public var from: Date?
    public var to: Date?
    public var limit = 100
    /// A page's `next`, to read the page after it.
    public var cursor: HistoryCursor?

    public init(from: Date? = nil, to: Date? = nil, limit: Int = 100, cursor: HistoryCursor? = nil) {
        self.from = from
        self.to = to
        self.limit = limit
        self.cursor = cursor
    }
}

/// The order the deck's changes are listed in: oldest first reads a stretch as it happened;
/// newest first reads back from a moment, the changes nearest it first however many came before.
public enum ChangeOrder: String, Sendable, CaseIterable {
    case oldestFirst = "oldest"
    case newestFirst = "newest"
}

/// Where a page of history ended: the time and the store's position of its oldest entry, as
/// `<milliseconds>.<position>`.
public struct HistoryCursor: Sendable, Equatable, LosslessStringConvertible {
    public var at: Int64
    public var position: Int64

    public init(at: Int64, position: Int64) {
        self.at = at
        self.position = position
    }

    public init?(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let at = Int64(parts[0]), let position = Int64(parts[1]) else { return nil }
        self.init(at: at, position: position)
    }

    public var description: String { "\(at).\(position)" }
}

/// One stored change, as `GET /api/panels/{id}/history` lists it.
public struct HistoryEntry: Sendable, Equatable {
    public var at: Date
    public var state: ViewState.Phase
    /// How long the load ran, for a load's result.
    public var durationMs: Int64?
    public var errorKind: ErrorKind?
    /// The error card's heading.
    public var title: String?
    /// The info's summary, or the error card's message.
    public var summary: String?
    /// The error's technical detail.
    public var detail: String?
    /// Forced by a debug command: counted in no uptime.
    public var debug: Bool

    public init(at: Date, state: ViewState.Phase, durationMs: Int64? = nil, errorKind: ErrorKind? = nil,
                title: String? = nil, summary: String? = nil, detail: String? = nil, debug: Bool = false) {
        self.at = at
        self.state = state
        self.durationMs = durationMs
        self.errorKind = errorKind
        self.title = title
        self.summary = summary
        self.detail = detail
        self.debug = debug
    }

    /// The entry that keeps `change`.
    public init(_ change: PanelChange) {
        let milliseconds = change.duration.map { Int64(($0 / .milliseconds(1)).rounded()) }
        switch change.state {
        case .loaded(let info):
            self.init(at: change.at, state: .loaded, durationMs: milliseconds, summary: info.summary)
        case .error(let error):
            self.init(at: change.at, state: .error, durationMs: milliseconds, errorKind: error.kind,
                      title: error.title, summary: error.message, detail: error.detail)
        case .loading, .initial:
            self.init(at: change.at, state: change.state.phase)
        }
        debug = change.cause == .debug
    }
}

extension HistoryEntry {
    /// The `state` column's codes.
    static let stateCodes: [ViewState.Phase] = [.initial, .loading, .loaded, .error]

    /// The code a store keeps for `state`.
    public var stateCode: Int64 { Int64(Self.stateCodes.firstIndex(of: state)!) }

    /// The phase a store's state code stands for (initial for one it cannot have written).
    public static func state(code: Int64) -> ViewState.Phase {
        stateCodes.indices.contains(Int(code)) ? stateCodes[Int(code)] : .initial
    }

    /// The entry a store kept as a `changes` row.
    public init(at: Int64, stateCode: Int64, durationMs: Int64?, errorKind: String?, title: String?,
                summary: String?, detail: String?, debug: Bool) {
        self.init(at: Date(millisecondsSince1970: at), state: Self.state(code: stateCode), durationMs: durationMs,
                  errorKind: errorKind.flatMap(ErrorKind.init(rawValue:)), title: title, summary: summary,
                  detail: detail, debug: debug)
    }
}

extension HistoryEntry: Encodable {
    private enum CodingKeys: String, CodingKey {
        case at, state, durationMs, errorKind, title, summary, detail, debug
    }

    /// Absent fields are left out; `debug` is written only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(durationMs, forKey: .durationMs)
        try container.encodeIfPresent(errorKind, forKey: .errorKind)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encodeIfPresent(detail, forKey: .detail)
        if debug { try container.encode(true, forKey: .debug) }
    }
}

/// A page of stored changes, newest first; `next` reads the page after it (null on the last).
public struct HistoryPage: Sendable, Equatable, Encodable {
    public var entries: [HistoryEntry]
    public var next: String?

    public init(entries: [HistoryEntry], next: String?) {
        self.entries = entries
        self.next = next
    }

    private enum CodingKeys: String, CodingKey {
        case entries, next
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
        try container.encode(next, forKey: .next)
    }
}
