import FoundationEssentials
import StateDeck

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DeckFixture {
    /// Why a fixture file cannot be served: the file, the key and what is wrong with it.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let file: String
        /// The key path (`panels[3].id`), or nil for the file as a whole.
        public let key: String?
        public let message: String

        public var description: String {
            "\(file): " + (key.map { "\($0): " } ?? "") + message
        }
    }

    /// What the file at `path` holds, whole: a fixture of a newer version, or one missing a key or
    /// holding a value of the wrong shape, is refused, never half-read.
    ///
    /// | the file | is |
    /// | --- | --- |
    /// | not JSON, or not an object | refused, naming the file |
    /// | `format` other than `statedeck-fixture` | refused, naming `format` |
    /// | `version` newer than ``version`` | refused, naming the StateDeck and the version that wrote it |
    /// | `version` not a whole number from 1 | refused, naming `version` |
    /// | a key missing or of the wrong type | refused, naming the key path |
    /// | a panel without an `id`, or an id given twice | refused, naming the panel's index |
    /// | `incidents` this StateDeck cannot read as incidents | refused, naming the incident |
    public static func read(path: String) throws(Problem) -> DeckFixture {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Problem(file: path, key: nil, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        // A named pipe would block the read until something writes to it.
        guard status.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: path) else {
            throw Problem(file: path, key: nil, message: "cannot be read: not a file")
        }
        return try read(Array(data), file: path)
    }

    /// The fixture `bytes` hold, read as ``read(path:)`` reads a file named `file`.
    public static func read(_ bytes: [UInt8], file: String) throws(Problem) -> DeckFixture {
        let head: Head
        do {
            head = try JSONDecoder().decode(Head.self, from: Data(bytes))
        } catch {
            throw Problem(file: file, key: nil, message: "is not a StateDeck fixture: not a JSON object")
        }
        guard head.format == format else {
            let found = head.format.map { "\"\($0)\"" } ?? "nothing"
            throw Problem(file: file, key: "format", message: "must be \"\(format)\", found \(found)")
        }
        guard let written = head.version, written >= 1 else {
            throw Problem(file: file, key: "version", message: "must be a whole number from 1 (this StateDeck reads up to \(version))")
        }
        guard written <= version else {
            let writer = head.statedeck ?? "an unknown version"
            throw Problem(file: file, key: nil,
                          message: "written by StateDeck \(writer), fixture version \(written); this StateDeck reads up to \(version)")
        }
        let fixture: DeckFixture
        do {
            fixture = try JSONDecoder().decode(DeckFixture.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw problem(error, file: file)
        } catch {
            throw Problem(file: file, key: nil, message: "\(error)")
        }
        try fixture.check(file: file)
        return fixture
    }

    /// The first key and version, read before the rest: a newer fixture may be shaped otherwise.
    private struct Head: Decodable {
        var format: String?
        var version: Int?
        var statedeck: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            format = try? container.decode(String.self, forKey: .format)
            version = try? container.decode(Int.self, forKey: .version)
            statedeck = try? container.decode(String.self, forKey: .statedeck)
        }
    }

    /// What JSONDecoder found wrong, as the key path and a sentence.
    private static func problem(_ error: DecodingError, file: String) -> Problem {
        func path(_ codingPath: [any CodingKey]) -> String? {
            let path = codingPath.reduce(into: "") { path, key in
                if let index = key.intValue { path += "[\(index)]" } else { path += path.isEmpty ? key.stringValue : "." + key.stringValue }
            }
            return path.isEmpty ? nil : path
        }
        switch error {
        case .keyNotFound(let key, let context):
            return Problem(file: file, key: path(context.codingPath + [key]), message: "is missing")
        case .typeMismatch(let type, let context):
            return Problem(file: file, key: path(context.codingPath), message: "must be \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            return Problem(file: file, key: path(context.codingPath), message: "must be \(Self.name(of: type)), not null")
        case .dataCorrupted(let context):
            return Problem(file: file, key: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            return Problem(file: file, key: nil, message: "\(error)")
        }
    }

    /// The JSON kind of a type JSONDecoder expected, as a sentence says it.
    private static func name(of type: Any.Type) -> String {
        let name = String(describing: type)
        return switch name {
        case "String": "a string"
        case "Int", "Int64", "Double": "a number"
        case "Bool": "true or false"
        case _ where name.hasPrefix("Array"): "an array"
        case _ where name.hasPrefix("Dictionary"): "an object"
        default: "a JSON value of another kind"
        }
    }

    /// Checks what decoding alone does not: the panels' ids, the values that must be objects, the
    /// instant and the incidents.
    private func check(file: String) throws(Problem) {
        do throws(ISO8601Time.Problem) {
            _ = try ISO8601Time.parse(at)
        } catch .notATime {
            throw Problem(file: file, key: "at", message: "must be an ISO 8601 instant with milliseconds, found \"\(at)\"")
        } catch {
            throw Problem(file: file, key: "at", message: "must be an instant that exists: \(error), found \"\(at)\"")
        }
        guard case .object = deck.settings else {
            throw Problem(file: file, key: "deck.settings", message: "must be an object")
        }
        var seen = Set<String>()
        for (index, panel) in panels.enumerated() {
            guard case .object = panel else { throw Problem(file: file, key: "panels[\(index)]", message: "must be an object") }
            guard case .string(let id)? = panel["id"], !id.isEmpty else {
                throw Problem(file: file, key: "panels[\(index)].id", message: "must be a panel id (a string)")
            }
            guard seen.insert(id).inserted else {
                throw Problem(file: file, key: "panels[\(index)].id", message: "\"\(id)\" is given to an earlier panel too")
            }
        }
        switch notice {
        case .null, .object: break
        default: throw Problem(file: file, key: "notice", message: "must be an error card or null")
        }
        for key in ["active", "next"] {
            guard case .array? = maintenance[key] else {
                throw Problem(file: file, key: "maintenance.\(key)", message: "must be an array of maintenance windows")
            }
        }
        for (index, incident) in incidents.enumerated() where (try? ExportedMemory.decoder.decode(
            Incident.self, from: Data(incident.bytes))) == nil {
            throw Problem(file: file, key: "incidents[\(index)]", message: "is not an incident this StateDeck reads")
        }
    }

    /// The incidents, as the deck keeps them.
    var keptIncidents: [Incident] {
        incidents.compactMap { try? ExportedMemory.decoder.decode(Incident.self, from: Data($0.bytes)) }
    }
}
