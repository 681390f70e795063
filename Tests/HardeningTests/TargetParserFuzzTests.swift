import MicroHTTP
import TestSupport
import Testing

extension Live {
    /// Property-based tests of request target parsing (`HTTPRequest`: path segments and query, each
    /// percent-decoded exactly once), 10,000 seeded random cases per property.
    @Suite("Request target parser fuzz") struct TargetParserFuzzTests {
        static let cases = 10_000

        @Test("Any target either parses or is refused for the reason a reference model gives; never a crash")
        func agreesWithTheReferenceModel() {
            checkProperty("reference model", cases: Self.cases) { random in
                let target = Self.randomTarget(&random)
                let expected = ReferenceTarget.parse(target)
                do throws(HTTPRequest.TargetError) {
                    let request = try HTTPRequest(method: .get, target: target)
                    guard case .success(let segments, let query) = expected else {
                        return "\(target.debugDescription) parsed, the model says \(expected)"
                    }
                    guard sameBytes(request.pathSegments, segments),
                          sameBytes(request.query.flatMap { [$0.name, $0.value] }, query.flatMap(\.self))
                    else {
                        return "\(target.debugDescription) gave \(request.pathSegments) \(Array(request.query)), the model \(expected)"
                    }
                } catch {
                    guard case .failure(let reason) = expected, reason == error else {
                        return "\(target.debugDescription) refused (\(error)), the model says \(expected)"
                    }
                }
                return nil
            }
        }

        @Test("Decoding undoes encoding exactly: any segments and query items come back as they were")
        func roundTrip() {
            checkProperty("round trip", cases: Self.cases) { random in
                let segments = (0..<random.int(1...6)).map { _ in random.text(maximum: 12) }
                let items = (0..<random.int(0...4)).map { _ in [random.text(maximum: 8), random.text(maximum: 8)] }
                let target = Encoding.target(segments: segments, query: items, random: random)
                guard let request = try? HTTPRequest(method: .get, target: target) else {
                    return "\(target.debugDescription) (from \(segments)) was refused"
                }
                guard sameBytes(request.pathSegments, segments) else {
                    return "\(target.debugDescription) decoded to \(request.pathSegments), not \(segments)"
                }
                guard sameBytes(request.query.flatMap { [$0.name, $0.value] }, items.flatMap(\.self)) else {
                    return "\(target.debugDescription) query decoded to \(Array(request.query)), not \(items)"
                }
                return nil
            }
        }

        @Test("Decoding happens exactly once: an encoded target encoded again decodes to the first encoding")
        func exactlyOnce() {
            checkProperty("exactly once", cases: Self.cases) { random in
                let segments = (0..<random.int(1...5)).map { _ in random.text(maximum: 10) }
                let once = segments.map { Encoding.segment($0, random: &random) }
                let twice = once.map { Encoding.segment($0, random: &random) }
                let target = "/" + twice.joined(separator: "/")
                guard let request = try? HTTPRequest(method: .get, target: target) else {
                    return "\(target.debugDescription) was refused"
                }
                return sameBytes(request.pathSegments, once) ? nil : "\(target.debugDescription) decoded to \(request.pathSegments), not \(once)"
            }
        }

        @Test("Only a literal slash separates segments; a decoded %2F stays inside its segment")
        func slashesSeparateOnlyWhenLiteral() {
            checkProperty("slashes", cases: Self.cases) { random in
                let target = Self.randomTarget(&random, valid: true)
                guard let request = try? HTTPRequest(method: .get, target: target) else {
                    return "\(target.debugDescription), valid, was refused"
                }
                let path = Array(target.utf8).split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
                let rawSegments = path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)

                guard request.pathSegments.count == rawSegments.count else {
                    return "\(target.debugDescription): \(request.pathSegments.count) segments for \(rawSegments.count) literal pieces"
                }
                for (raw, decoded) in zip(rawSegments, request.pathSegments) {
                    let encodedSlashes = raw.indices.filter { index in
                        raw[index...].prefix(3).map { $0 | 0x20 } == Array("%2f".utf8)
                    }.count
                    let slashes = decoded.utf8.filter { $0 == UInt8(ascii: "/") }.count
                    guard slashes == encodedSlashes else {
                        return "\(target.debugDescription): segment \(decoded.debugDescription) has \(slashes) slashes for \(encodedSlashes) %2F"
                    }
                }
                return nil
            }
        }

        @Test("Re-encoding what a valid target decodes to gives a target that decodes the same")
        func reencodingIsStable() {
            checkProperty("re-encoding", cases: Self.cases) { random in
                let target = Self.randomTarget(&random, valid: true)
                guard let request = try? HTTPRequest(method: .get, target: target) else {
                    return "\(target.debugDescription), valid, was refused"
                }
                let items = request.query.map { [$0.name, $0.value] }
                let canonical = Encoding.target(segments: request.pathSegments, query: items, random: nil)
                guard let again = try? HTTPRequest(method: .get, target: canonical) else {
                    return "\(canonical.debugDescription) (from \(target.debugDescription)) was refused"
                }
                guard sameBytes(again.pathSegments, request.pathSegments),
                      sameBytes(again.query.flatMap { [$0.name, $0.value] }, items.flatMap(\.self))
                else {
                    return "\(target.debugDescription) → \(canonical.debugDescription) decoded differently"
                }
                let canonicalAgain = Encoding.target(
                    segments: again.pathSegments, query: again.query.map { [$0.name, $0.value] }, random: nil)
                return canonicalAgain == canonical ? nil : "\(canonical.debugDescription) is not a fixed point"
            }
        }

        /// A target built from the bytes that matter to the parser, sometimes any text at all;
        /// with `valid`, one the parser accepts (whole escapes that decode to UTF-8).
        static func randomTarget(_ random: inout SeededRandom, valid: Bool = false) -> String {
            let alphabet: [String] = ["/", "/", "a", "b", "Z", "0", ".", "..", "%", "%2F", "%2f", "%25", "%2e", "%00",
                                      "%C3%A9", "%E2%82", "%FF", "%g1", "%1", "?", "&", "=", "+", "%2B", "%26", "%3D",
                                      " ", "é", "#", ";", "\\", "~", "%7E", "%20", "\u{301}", "e\u{301}", "%CC%81"]
            while true {
                if !valid, random.chance(0.1) {
                    return String(decoding: random.bytes(random.int(0...40)), as: UTF8.self)
                }
                var target = valid || random.chance(0.9) ? "/" : ""
                for _ in 0..<random.int(0...20) {
                    target += random.pick(alphabet)
                }
                if !valid || ReferenceTarget.parse(target).isSuccess {
                    return target
                }
            }
        }
    }
}

/// Percent-encoding for the tests: every byte outside the unreserved set and the safe
/// delimiters is escaped, with random hex case; with `random`, some safe bytes are escaped too.
enum Encoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@".utf8)

    static func segment(_ text: String, random: inout SeededRandom) -> String {
        encode(text, keep: unreserved.union("&=+".utf8), random: &random)
    }

    /// Query names and values: `&`, `=` and `+` (a space there) must be escaped.
    static func queryPart(_ text: String, random: inout SeededRandom) -> String {
        encode(text, keep: unreserved, random: &random)
    }

    static func target(segments: [String], query: [[String]], random: SeededRandom?) -> String {
        var generator = random ?? SeededRandom(seed: 0)
        let deterministic = random == nil
        let encode = { (text: String, keepQuery: Bool) -> String in
            deterministic ? canonical(text, query: keepQuery)
                : keepQuery ? queryPart(text, random: &generator) : segment(text, random: &generator)
        }
        var target = "/" + segments.map { encode($0, false) }.joined(separator: "/")
        if !query.isEmpty {
            target += "?" + query.map { encode($0[0], true) + "=" + encode($0[1], true) }.joined(separator: "&")
        }
        return target
    }

    static func canonical(_ text: String, query: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) || (!query && "&=+".utf8.contains(byte)) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out
    }

    private static func encode(_ text: String, keep: Set<UInt8>, random: inout SeededRandom) -> String {
        var out = ""
        for byte in text.utf8 {
            if keep.contains(byte), !random.chance(0.2) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: random.chance(0.5)).leftPadded()
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded() -> String {
        count == 1 ? "0" + self : self
    }
}

/// What a target should parse to, computed the plain way: split on `/` and `?` and `&`, then
/// decode each piece's escapes, refusing bad escapes and bytes that are not UTF-8.
enum ReferenceTarget {
    enum Outcome: Equatable, CustomStringConvertible {
        case success([String], [[String]])
        case failure(HTTPRequest.TargetError)

        var isSuccess: Bool {
            if case .success = self { return true }
            return false
        }

        var description: String {
            switch self {
            case .success(let segments, let query): "segments \(segments) query \(query)"
            case .failure(let error): "refused: \(error)"
            }
        }
    }

    /// On bytes throughout: a `Character` would join `/` and a combining mark after it.
    static func parse(_ target: String) -> Outcome {
        guard let bytes = originForm(of: Array(target.utf8)) else { return .failure(.notOriginForm) }
        let parts = bytes.dropFirst().split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)
        var segments: [String] = []
        for piece in parts[0].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            switch decode(piece, plus: false) {
            case .success(let text): segments.append(text)
            case .failure(let error): return .failure(error)
            }
        }
        var items: [[String]] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: UInt8(ascii: "&")) {
                let halves = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                var decoded: [String] = []
                for half in [halves[0], halves.count == 2 ? halves[1] : []] {
                    switch decode(half, plus: true) {
                    case .success(let text): decoded.append(text)
                    case .failure(let error): return .failure(error)
                    }
                }
                items.append(decoded)
            }
        }
        return .success(segments, items)
    }

    /// The origin-form part of a target: itself, or what follows an absolute-form target's
    /// authority (`http://host/a?b` is `/a?b`, `http://host?b` is `/?b`); nil for anything else.
    private static func originForm(of bytes: [UInt8]) -> [UInt8]? {
        if bytes.first == UInt8(ascii: "/") { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let scheme = ["https://", "http://"].first(where: {
            bytes.count > $0.utf8.count && text.prefix($0.count).lowercased() == $0 && text.prefix($0.count).allSatisfy(\.isASCII)
        }) else { return nil }
        let rest = bytes.dropFirst(scheme.utf8.count)
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        guard end > rest.startIndex, !rest[..<end].contains(UInt8(ascii: "@")) else { return nil }
        let path = Array(rest[end...])
        return path.first == UInt8(ascii: "/") ? path : [UInt8(ascii: "/")] + path
    }

    private static func decode(_ text: ArraySlice<UInt8>, plus: Bool) -> Result<String, HTTPRequest.TargetError> {
        var bytes: [UInt8] = []
        var utf8 = text
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16),
                      utf8.prefix(2).allSatisfy({ UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "f") })
                else { return .failure(.malformedPercentEncoding) }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(plus && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(string)
    }
}
