import Foundation
import StateDeck
import TestSupport

/// The documents of PROTOCOL.md as a client decodes them (only the fields the tests compare).
struct WireState: Decodable, Equatable {
    var title: String
    var debug: Bool
    var lastEventId: UInt64
    var panels: [WirePanel]
    var toast: Toast?
}

struct WirePanel: Decodable, Equatable {
    var id: String
    var title: String
    var phase: ViewState.Phase
    var isInitialLoading: Bool
    var isLoading: Bool
    var latestValidInfo: Info?
    var latestInfo: Info?
    var latestValidError: ErrorCard?
    var latestError: ErrorCard?
    var modifyingIds: [String]?
    var history: [ViewStateHistory.Entry]
    var placeholder: Info?
    var retry: RetryStatus?
    var debugPinned: Bool
    var stale: Bool
}

/// PROTOCOL.md's error answer: `{"error": {"code", "message"}}`.
struct WireError: Decodable, Equatable {
    struct Detail: Decodable, Equatable {
        var code: String
        var message: String
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
