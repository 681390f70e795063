import FoundationEssentials

/// A JSON document, decoded without a schema: what http checks and picks read, and what command
/// and file output turn into `Info`.
public enum JSONValue: Sendable, Hashable, Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `text`; nil when it is not JSON.
    public init?(parsing text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    /// The value as a person reads it: strings bare, whole numbers without a decimal point,
    /// arrays and objects as compact JSON.
    public var displayText: String {
        switch self {
        case .string(let string): string
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let bool): String(bool)
        case .null: "null"
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.key < $1.key }
            .map { "\(JSONValue.string($0.key).jsonText):\($0.value.jsonText)" }.joined(separator: ",") + "}"
        }
    }

    /// The value as JSON text.
    var jsonText: String {
        guard case .string(let string) = self else { return displayText }
        let data = (try? JSONEncoder().encode(string)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
