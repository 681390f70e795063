import FoundationEssentials
import StateDeck

/// A moment of the deck as a file: what the page needs to draw exactly the screen it drew then,
/// taken from the state document of that moment (`GET /api/state?format=fixture` writes one,
/// `statedeck --replay FILE` serves one frozen).
///
/// | key | holds |
/// | --- | --- |
/// | `format` | `"statedeck-fixture"` |
/// | `version` | the fixture format's version, ``version``; a StateDeck reads up to its own |
/// | `statedeck` | the version of StateDeck that wrote it |
/// | `at` | the instant it shows, ISO 8601 with milliseconds |
/// | `deck` | `{"title", "settings", "groups"}`, as the state document has them |
/// | `panels` | each panel in its compact form, as the state document has it, in the deck's order |
/// | `notice`, `maintenance`, `incidents` | as the state document has them |
///
/// The state document's `debug`, `lastEventId` and `toast` belong to the server serving it, not
/// to the moment: a replay says its own.
public struct DeckFixture: Sendable, Equatable {
    public static let format = "statedeck-fixture"
    /// The newest fixture version this StateDeck writes and reads.
    public static let version = 1

    /// The deck's shape: what the page draws around the panels.
    struct Shape: Codable, Equatable {
        var title: String
        var settings: FixtureJSON
        var groups: [Group]
    }

    struct Group: Codable, Equatable {
        var id: String
        var title: String
    }

    /// Which StateDeck wrote it.
    public var writtenBy: String
    /// The instant it shows, as written.
    public var at: String
    var deck: Shape
    var panels: [FixtureJSON]
    var notice: FixtureJSON
    var maintenance: FixtureJSON
    var incidents: [FixtureJSON]

    /// The title of the deck it shows.
    public var title: String { deck.title }

    /// The ids of its panels, in order.
    public var panelIDs: [String] {
        panels.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
    }

    /// The moment `stateDocument` (the bytes of a `GET /api/state` answer, live or of an earlier
    /// instant) shows, at `at`.
    public init(stateDocument: [UInt8], at: Date) throws {
        let document = try JSONDecoder().decode(StateDocument.self, from: Data(stateDocument))
        writtenBy = StateDeckVersion.current
        self.at = DeckJSON.timestamp(at)
        deck = Shape(title: document.title, settings: document.settings, groups: document.groups)
        panels = document.panels
        notice = document.notice ?? .null
        maintenance = document.maintenance
        incidents = document.incidents
    }

    /// The fixture as a file holds it: pretty-printed, keys sorted, so two fixtures compare line by line.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)).map { Array($0) } ?? []) + [UInt8(ascii: "\n")]
    }

    /// The name a downloaded fixture is given: the deck's moment, colons left out for file systems
    /// that refuse them (`statedeck-2026-11-27T23-50-01.250Z.json`).
    public var fileName: String {
        "statedeck-" + String(at.map { $0 == ":" ? "-" : $0 }) + ".json"
    }

    /// What a fixture reads from a state document.
    private struct StateDocument: Decodable {
        var title: String
        var settings: FixtureJSON
        var groups: [Group]
        var panels: [FixtureJSON]
        var notice: FixtureJSON?
        var maintenance: FixtureJSON
        var incidents: [FixtureJSON]
    }
}

extension DeckFixture: Codable {
    enum CodingKeys: String, CodingKey {
        case format, version, statedeck, at, deck, panels, notice, maintenance, incidents
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        writtenBy = try container.decode(String.self, forKey: .statedeck)
        at = try container.decode(String.self, forKey: .at)
        deck = try container.decode(Shape.self, forKey: .deck)
        // A fixture written before the ping's key left the state holds it: a replay shows it to nobody.
        panels = try container.decode([FixtureJSON].self, forKey: .panels).map(\.withoutPingPath)
        notice = try container.decode(FixtureJSON.self, forKey: .notice)
        maintenance = try container.decode(FixtureJSON.self, forKey: .maintenance)
        incidents = try container.decode([FixtureJSON].self, forKey: .incidents)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(Self.version, forKey: .version)
        try container.encode(writtenBy, forKey: .statedeck)
        try container.encode(at, forKey: .at)
        try container.encode(deck, forKey: .deck)
        try container.encode(panels, forKey: .panels)
        try container.encode(notice, forKey: .notice)
        try container.encode(maintenance, forKey: .maintenance)
        try container.encode(incidents, forKey: .incidents)
    }
}
