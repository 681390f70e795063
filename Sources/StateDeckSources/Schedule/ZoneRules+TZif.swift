#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ZoneRules {
    /// Why a zone could not be loaded: its name, the file read and what was wrong.
    public struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The zone's name as asked.
        public var zone: String
        /// The file read; nil when the rules came from bytes.
        public var file: String?
        /// What was wrong, such as `not a TZif file (it starts with "abcd", not "TZif")`.
        public var reason: String

        public var description: String {
            "time zone \(zone)\(file.map { " (\($0))" } ?? ""): \(reason)"
        }

        /// A reason, before the zone and file are known.
        struct Problem: Error {
            var reason: String
            init(_ reason: String) { self.reason = reason }
        }
    }

    /// Where the tz database is installed.
    static let databaseFolder = "/usr/share/zoneinfo"

    /// The rules of the zone `name` (such as `Europe/Paris`), read from the tz database; `UTC` needs no file.
    public static func named(_ name: String) throws(LoadError) -> ZoneRules {
        if name == "UTC" { return .utc }
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(".."), !name.utf8.contains(0) else {
            throw LoadError(zone: name, file: nil, reason: "not a zone name (such as Europe/Paris): names are relative, without ..")
        }
        let path = "\(databaseFolder)/\(name)"
        do {
            return try parseTZif(name: name, try readFile(path))
        } catch let problem {
            throw LoadError(zone: name, file: path, reason: problem.reason)
        }
    }

    /// The machine's own zone: the one `TZ` names, else `/etc/localtime`'s, else UTC.
    public static func local(environment: [String: String]) -> ZoneRules {
        if let name = environment["TZ"].map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }),
           let zone = try? named(name) {
            return zone
        }
        return (try? parseTZif(name: "local time", readFile("/etc/localtime"))) ?? .utc
    }

    /// The rules in `bytes`, a TZif file (RFC 8536, versions 1 to 4).
    public init(name: String, tzif bytes: [UInt8]) throws(LoadError) {
        do {
            self = try Self.parseTZif(name: name, bytes)
        } catch let problem {
            throw LoadError(zone: name, file: nil, reason: problem.reason)
        }
    }

    /// TZif files are a few kilobytes; anything much larger is not one.
    private static let fileSizeLimit = 1 << 20

    private static func readFile(_ path: String) throws(LoadError.Problem) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            let hint = code == ENOENT ? " (no such zone, or the tzdata package is not installed)" : ""
            throw LoadError.Problem("cannot open: \(String(errno: code))\(hint)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 {
                bytes += chunk[..<got]
                guard bytes.count <= fileSizeLimit else { throw LoadError.Problem("larger than \(fileSizeLimit) bytes: not a TZif file") }
            } else if got == 0 {
                return bytes
            } else if errno != EINTR {
                throw LoadError.Problem("cannot read: \(String(errno: errno))")
            }
        }
    }

    /// Reads a TZif file: the 64-bit data block of versions 2 and later (the 32-bit one of
    /// version 1 files), then the footer's TZ rule.
    private static func parseTZif(name: String, _ bytes: [UInt8]) throws(LoadError.Problem) -> ZoneRules {
        var reader = TZifReader(bytes: bytes)
        let header = try reader.header()
        guard header.version >= 2 else {
            return try reader.dataBlock(header, timeSize: 4, name: name, rule: nil)
        }
        try reader.skip(header.dataBlockSize(timeSize: 4), what: "version 1 data block")
        let header64 = try reader.header()
        let block = reader
        try reader.skip(header64.dataBlockSize(timeSize: 8), what: "64-bit data block")
        let rule = try reader.footer()
        var dataReader = block
        return try dataReader.dataBlock(header64, timeSize: 8, name: name, rule: rule)
    }

    /// The counts a TZif header gives.
    private struct TZifHeader {
        var version: Int
        var isUTCCount, isStandardCount, leapCount, transitionCount, typeCount, characterCount: Int

        func dataBlockSize(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    /// A TZif file's bytes and where reading is.
    private struct TZifReader {
        let bytes: [UInt8]
        var position = 0

        mutating func skip(_ count: Int, what: String) throws(LoadError.Problem) {
            guard bytes.count - position >= count else {
                throw LoadError.Problem("truncated: the \(what) needs \(count) bytes at byte \(position), the file has \(bytes.count)")
            }
            position += count
        }

        /// A big-endian signed integer of `size` bytes (4 or 8).
        mutating func integer(size: Int, what: String) throws(LoadError.Problem) -> Int {
            let start = position
            try skip(size, what: what)
            var value: UInt64 = 0
            for byte in bytes[start..<start + size] { value = value << 8 | UInt64(byte) }
            return size == 4 ? Int(Int32(bitPattern: UInt32(value))) : Int(Int64(bitPattern: value))
        }

        mutating func header() throws(LoadError.Problem) -> TZifHeader {
            let start = position
            guard bytes.count - start >= 4, bytes[start..<start + 4].elementsEqual("TZif".utf8) else {
                let found = bytes[start..<min(start + 4, bytes.count)].map { (32...126).contains($0) ? String(UnicodeScalar($0)) : "?" }
                throw LoadError.Problem("not a TZif file (it starts with \"\(found.joined())\" at byte \(start), not \"TZif\")")
            }
            try skip(20, what: "header")
            let version = bytes[start + 4] == 0 ? 1 : Int(bytes[start + 4]) - Int(UInt8(ascii: "0"))
            guard (1...9).contains(version) else { throw LoadError.Problem("unknown TZif version byte \(bytes[start + 4])") }
            var counts: [Int] = []
            for what in ["isutcnt", "isstdcnt", "leapcnt", "timecnt", "typecnt", "charcnt"] {
                let count = try integer(size: 4, what: "header's \(what)")
                guard count >= 0 else { throw LoadError.Problem("header's \(what) is negative") }
                counts.append(count)
            }
            guard counts[4] >= 1 else { throw LoadError.Problem("no local time types (typecnt is 0)") }
            return TZifHeader(version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                              transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        }

        /// The transitions and local time types of a data block that starts here.
        mutating func dataBlock(_ header: TZifHeader, timeSize: Int, name: String, rule: POSIXRule?) throws(LoadError.Problem) -> ZoneRules {
            guard header.leapCount == 0 else {
                throw LoadError.Problem("counts leap seconds (a right/ zone): use the zone of the same name without right/")
            }
            var instants: [Int] = []
            for _ in 0..<header.transitionCount {
                let instant = try integer(size: timeSize, what: "transition times")
                guard instants.last.map({ $0 < instant }) ?? true else {
                    throw LoadError.Problem("transition times out of order at transition \(instants.count)")
                }
                instants.append(instant)
            }
            let typeStart = position
            try skip(header.transitionCount, what: "transition types")
            var offsets: [Int] = []
            for _ in 0..<header.typeCount {
                offsets.append(try integer(size: 4, what: "local time types"))
                try skip(2, what: "local time types")
            }
            try skip(header.characterCount + header.isStandardCount + header.isUTCCount, what: "abbreviations and indicators")
            var transitions: [Transition] = []
            var current = offsets[0]
            for (index, instant) in instants.enumerated() {
                let type = Int(bytes[typeStart + index])
                guard type < offsets.count else {
                    throw LoadError.Problem("transition \(index) names local time type \(type), the file has \(offsets.count)")
                }
                if offsets[type] != current {
                    transitions.append(Transition(instant: instant, offsetBefore: current, offsetAfter: offsets[type]))
                    current = offsets[type]
                }
            }
            return ZoneRules(name: name, transitions: transitions, initialOffset: offsets[0], rule: rule)
        }

        /// The footer, `\n` TZ rule `\n`; nil when the rule is empty.
        mutating func footer() throws(LoadError.Problem) -> POSIXRule? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else {
                throw LoadError.Problem("truncated: no footer after the 64-bit data block")
            }
            guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: "\n")) else {
                throw LoadError.Problem("truncated: the footer's TZ rule has no closing newline")
            }
            let text = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
            position = end + 1
            return text.isEmpty ? nil : try POSIXRule(parsing: text)
        }
    }
}
