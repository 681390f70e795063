import PCRE2
import TestSupport
import Testing

@Suite struct RegularExpressionTests {
    @Test func findsThePatternAnywhereUnlessAnchored() throws {
        let version = try RegularExpression("version [0-9]+")
        #expect(version.firstMatch(in: "api 2.1, version 42 (live)") == .matched)
        #expect(version.firstMatch(in: "version x") == .notMatched)
        #expect(try RegularExpression("^SSH-2\\.0-").firstMatch(in: "SSH-2.0-OpenSSH_9.2") == .matched)
        #expect(try RegularExpression("^x{1024}$").firstMatch(in: String(repeating: "x", count: 1025)) == .notMatched)
        #expect(try RegularExpression("").firstMatch(in: "") == .matched)
    }

    @Test func knowsUnicodesLettersAndDigits() throws {
        #expect(try RegularExpression("^\\w+ \\d$").firstMatch(in: "café ٣") == .matched)
        #expect(try RegularExpression("^.{4}$").firstMatch(in: "café") == .matched, "one code point, not two bytes")
    }

    @Test func aMistakeIsPCRE2sReasonAndItsOffsetInCharacters() {
        #expect(throws: RegularExpression.SyntaxError(reason: "missing closing parenthesis", offset: 6)) {
            try RegularExpression("(nginx")
        }
        #expect(throws: RegularExpression.SyntaxError(reason: "missing closing parenthesis", offset: 2)) {
            try RegularExpression("é(")
        }
        #expect(throws: RegularExpression.SyntaxError(reason: "range out of order in character class", offset: 3)) {
            try RegularExpression("[z-a]")
        }
    }

    /// 2^25 ways to split 25 a's, each tried before the b fails the match: without a limit, tens of
    /// seconds, and twice as long for each more a. (Off Swift's shared pool, as StateDeck matches,
    /// so that the other suites' timing is not this one's to pay.)
    @Test func aCatastrophicPatternGivesUpAfterItsSteps() async throws {
        let catastrophic = try RegularExpression("^(a+)+$")
        let start = ContinuousClock.now
        let outcome = try await offPool { catastrophic.firstMatch(in: String(repeating: "a", count: 25) + "b") }
        let took = ContinuousClock.now - start
        #expect(outcome == .gaveUp(reason: "gave up after 10,000,000 steps"))
        #expect(took < .seconds(5), "took \(took)")
        #expect(catastrophic.firstMatch(in: String(repeating: "a", count: 25)) == .matched)
    }

    /// Compiled code outgrows its 32 KiB stack on these; the interpreter answers instead, within
    /// its depth and memory limits.
    @Test func deepBacktrackingIsTheInterpretersAndBounded() async throws {
        let alternation = try RegularExpression("(?:a|b)*c")
        let deep = try RegularExpression("(?:a|b)*$")
        let wide = try RegularExpression("(?:" + String(repeating: "(x)?", count: 100) + "(?:a|b))*$")
        let outcomes = try await offPool {
            [alternation.firstMatch(in: String(repeating: "ab", count: 20_000) + "c"),
             deep.firstMatch(in: String(repeating: "a", count: 200_000)),
             wide.firstMatch(in: String(repeating: "a", count: 200_000))]
        }
        #expect(outcomes == [.matched, .gaveUp(reason: "gave up 100,000 levels deep"), .gaveUp(reason: "gave up at 32 MiB of memory")])
    }

    @Test func threadsShareOneCompiledPattern() async throws {
        let pattern = try RegularExpression("^(ok|up) [0-9]+$")
        let outcomes = await withTaskGroup(of: [RegularExpression.Outcome].self) { group in
            for worker in 0..<4 {
                group.addTask { (0..<500).map { pattern.firstMatch(in: $0 % 2 == 0 ? "ok \(worker)\($0)" : "down") } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.count == 2_000)
        #expect(outcomes.filter { $0 == .matched }.count == 1_000)
        #expect(outcomes.filter { $0 == .notMatched }.count == 1_000)
    }
}
