import FoundationEssentials

/// A JSON value a fixture carries as the state document wrote it (a panel's compact form, the
/// settings): read and written back with the same meaning, whatever fields a StateDeck adds.
/// Whole numbers stay whole, so an id or a count is written as it was read.
indirect enum FixtureJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([FixtureJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: FixtureJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The member `key` of an object; nil for another value or a missing key.
    subscript(key: String) -> FixtureJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text of a string; nil for another value.
    var text: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value as compact JSON, keys sorted.
    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { Array($0) } ?? Array("null".utf8)
    }
}
