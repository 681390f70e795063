import Foundation
import StateDeck
import TestSupport

/// The documents of PROTOCOL.md as a client decodes them (only the fields the tests compare).
struct WireState: Decodable, Equatable {
    var title: String
    var debug: Bool
    var groups: [PanelGroup]
    var lastEventId: UInt64
    var panels: [WirePanel]
    var toast: Toast?
}

extension PanelGroup: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id, title
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .id), title: try container.decode(String.self, forKey: .title))
    }
}

/// A panel as the page holds it, decoded from any of its forms: the whole `PanelState` of
/// `GET /api/panels/{id}`, or the compact form of the state document and of `panel` events, whose
/// left-out fields take their defaults and the values PROTOCOL.md says they repeat. A `panel`
/// event decoded alone is a patch: only the fields it carries are meaningful.
struct WirePanel: Decodable, Equatable {
    var id: String
    var title: String
    var group: String?
    var phase: ViewState.Phase
    var isInitialLoading: Bool
    var isLoading: Bool
    var latestValidInfo: Info?
    var latestInfo: Info?
    var latestValidError: ErrorCard?
    var latestError: ErrorCard?
    var modifyingIds: [String]?
    /// When the newest state began: `since`, or the newest entry of a whole state's `history`.
    var since: Date?
    var placeholder: Info?
    var retry: RetryStatus?
    var debugPinned: Bool
    var stale: Bool
    var restored: Bool

    private enum CodingKeys: String, CodingKey {
        case id, title, group, phase, isInitialLoading, isLoading, latestValidInfo, latestInfo, latestValidError
        case latestError, modifyingIds, since, history, placeholder, retry, debugPinned, stale, restored
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<Value: Decodable>(_ key: CodingKeys, _ fallback: Value) throws -> Value {
            try container.decodeIfPresent(Value.self, forKey: key) ?? fallback
        }
        id = try container.decode(String.self, forKey: .id)
        title = try value(.title, "")
        group = try value(.group, nil)
        phase = try value(.phase, .initial)
        isInitialLoading = try value(.isInitialLoading, false)
        isLoading = try value(.isLoading, false)
        latestValidInfo = try value(.latestValidInfo, nil)
        latestInfo = try latestValidInfo ?? value(.latestInfo, nil)
        latestValidError = try value(.latestValidError, nil)
        latestError = try latestValidError ?? value(.latestError, nil)
        modifyingIds = try value(.modifyingIds, nil)
        since = try value(.since, nil) ?? value(.history, [ViewStateHistory.Entry]()).last?.at
        placeholder = try value(.placeholder, nil)
        retry = try value(.retry, nil)
        debugPinned = try value(.debugPinned, false)
        stale = try value(.stale, false)
        restored = try value(.restored, false)
    }
}

/// PROTOCOL.md's error answer: `{"error": {"code", "message"}}`.
struct WireError: Decodable, Equatable {
    struct Detail: Decodable, Equatable {
        var code: String
        var message: String
        /// With `forbidden` for want of a role, the role needed.
        var role: String?
    }

    var error: Detail
}

enum WireDecodingError: Error, CustomStringConvertible {
    case notJSON(String)

    var description: String {
        switch self {
        case .notJSON(let text): "not the expected JSON: \(text)"
        }
    }
}

extension JSONDecoder {
    /// Decodes PROTOCOL.md's timestamps (ISO 8601 with milliseconds).
    static let wire: JSONDecoder = {
        let decoder = JSONDecoder()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        decoder.dateDecodingStrategy = .custom { decoder in
            try Date(decoder.singleValueContainer().decode(String.self), strategy: style)
        }
        return decoder
    }()
}

/// Decodes `text` as `type`, naming the text when it does not fit.
func decodeWire<Document: Decodable>(_ type: Document.Type, from text: String) throws -> Document {
    do {
        return try JSONDecoder.wire.decode(type, from: Data(text.utf8))
    } catch {
        throw WireDecodingError.notJSON("\(error) in \(text)")
    }
}

/// The top-level keys of a JSON object, to check a document's shape.
func jsonKeys(_ text: String) -> Set<String> {
    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    return Set(object?.keys.map { $0 } ?? [])
}

extension HTTPTestResponse {
    func decode<Document: Decodable>(_ type: Document.Type) throws -> Document {
        try decodeWire(type, from: text)
    }

    /// The JSON error answer, or nil when the body is not one.
    var apiError: WireError.Detail? {
        (try? decode(WireError.self))?.error
    }
}

extension SSEEvent {
    func decode<Document: Decodable>(_ type: Document.Type) throws -> Document {
        try decodeWire(type, from: data)
    }

    /// The numeric `id:`.
    var number: UInt64? { id.flatMap(UInt64.init) }
}

/// The panels a client holds: the snapshot's, each `panel` event applied as the patch it is.
struct WirePanels {
    private var objects: [String: [String: Any]] = [:]

    /// The panels of the state document `snapshot` carries.
    init(snapshot: SSEEvent) throws {
        let document = try JSONSerialization.jsonObject(with: Data(snapshot.data.utf8)) as? [String: Any]
        for panel in document?["panels"] as? [[String: Any]] ?? [] {
            if let id = panel["id"] as? String { objects[id] = panel }
        }
    }

    /// Applies the `panel` event `event` and returns the panel it changed, whole.
    mutating func apply(_ event: SSEEvent) throws -> WirePanel {
        guard let patch = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any],
              let id = patch["id"] as? String
        else { throw WireDecodingError.notJSON("not a panel patch: \(event.data)") }
        var panel = objects[id] ?? [:]
        panel.merge(patch) { $1 }
        // A patch leaves out the newest info or error while it repeats the valid one.
        if patch["latestValidInfo"] is [String: Any] { panel["latestInfo"] = nil }
        if patch["latestValidError"] is [String: Any] { panel["latestError"] = nil }
        objects[id] = panel
        let bytes = try JSONSerialization.data(withJSONObject: panel)
        return try decodeWire(WirePanel.self, from: String(decoding: bytes, as: UTF8.self))
    }
}
