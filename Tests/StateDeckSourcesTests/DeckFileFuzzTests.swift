import Foundation
import Locking
import TestSupport
import Testing
import Threading
@testable import StateDeckSources
@testable import YAML

/// Seeded mutations of the deck files in `DeckFileCorpus/`: whatever the bytes, `DeckFile.parse`
/// returns within a bound, with a deck or with problems that name the file, say what is wrong and
/// give the line wherever the YAML has one. A failing case replays with `HARDENING_SEED`, as the
/// hardening suites' fuzz runs do; a crash or hang it finds is kept as a corpus file.
@Suite("Deck file fuzz")
struct DeckFileFuzzTests {
    static let cases = 3_000
    /// A case takes a millisecond or so; only a hang takes this long, even on a busy machine.
    static let caseLimit = DispatchTimeInterval.seconds(5)
    static let hang = "no answer within 5 s: a hang"
    /// Larger corpus files, the findings' blow-ups, are read whole only: mutating them would take
    /// most of the run's few seconds.
    static let mutatedSizeLimit = 8 << 10
    static let fileName = "fuzzed.yaml"

    static let corpusFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("DeckFileCorpus")

    /// The corpus files' paths, sorted so that a seed picks the same files everywhere.
    static func corpusPaths() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
            .map { corpusFolder.appendingPathComponent($0).path }
    }

    @Test("Each corpus file, read from disk, gives a deck or problems that name it")
    func corpusFilesLoad() throws {
        let paths = try Self.corpusPaths()
        try #require(paths.count >= 12, "the corpus is in \(Self.corpusFolder.path)")
        for path in paths {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            // Bytes that are not UTF-8 are refused before any YAML is read.
            let text = String(validating: bytes, as: UTF8.self)
            if let violation = Self.load(path).map({ Self.violation(in: $0, of: text, file: path) }) ?? Self.hang {
                Issue.record("\(path): \(violation)")
            }
        }
    }

    /// Found while fuzzing the reader, kept in the corpus: aliases nesting anchored lists in one
    /// another ever deeper (freeing the tree overflowed the stack), and aliases multiplying a list
    /// (a million problems and seconds of work from 12 KB).
    @Test(arguments: [
        ("alias-nesting.yaml", "4: YAML syntax: lists and mappings nested more than 1000 deep"),
        ("alias-fan-out.yaml", "5: YAML syntax: aliases stand for more than 10000 nodes in all"),
    ])
    func findingsAreRefusedAtOnce(file: String, problem: String) throws {
        let path = Self.corpusFolder.appendingPathComponent(file).path
        let outcome = try #require(Self.load(path))
        #expect(outcome.failure?.description == "\(path):\(problem)")
    }

    /// Lists nested 1,000 deep through aliases, and 10,000 nodes behind them, are composed; one
    /// level or one alias more is refused.
    @Test func theLimitsCountWhatAliasesStandFor() throws {
        let text = try String(contentsOf: Self.corpusFolder.appendingPathComponent("alias-limits.yaml"), encoding: .utf8)
        #expect(try YAMLComposer.compose(text) != nil)
        #expect(throws: YAMLError.syntax(problem: "lists and mappings nested more than 1000 deep",
                                         mark: YAMLMark(line: 7, column: 343), context: nil)) {
            try YAMLComposer.compose(text.replacingOccurrences(of: "*l1", with: "[*l1]"))
        }
        #expect(throws: YAMLError.syntax(problem: "aliases stand for more than 10000 nodes in all",
                                         mark: YAMLMark(line: 12, column: 11), context: nil)) {
            try YAMLComposer.compose(text + "one-more: *title\n")
        }
    }

    @Test("Thousands of mutated deck files: a deck or located problems, never a crash or a hang")
    func mutatedDeckFiles() throws {
        let corpus = try Self.corpusPaths().map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
            .filter { $0.count <= Self.mutatedSizeLimit }
        try #require(corpus.count >= 12, "the corpus is in \(Self.corpusFolder.path)")
        let seed = Seed.make()
        var decks = 0, keyProblems = 0
        for index in 0..<Self.cases {
            var random = SeededRandom(seed: Seed.derive(seed, index))
            let bytes = DeckFileMutation.mutate(random.pick(corpus), splicing: corpus, random: &random)
            // What a caller can pass: `parse` takes a String, whose bytes are always UTF-8.
            let text = String(decoding: bytes, as: UTF8.self)
            let outcome = Self.outcome(within: Self.caseLimit) { () throws(DeckFileError) in
                try DeckFile.parse(text, file: Self.fileName, folder: "/deck")
            }
            if let violation = outcome.map({ Self.violation(in: $0, of: text, file: Self.fileName) }) ?? Self.hang {
                Issue.record("""
                    case \(index) of \(Self.cases) (replay with HARDENING_SEED=\(seed)): \(violation)
                    the text (\(bytes.count) bytes): \(String(reflecting: String(text.prefix(2000))))
                    """)
                return
            }
            switch outcome {
            case .success: decks += 1
            case .failure(let error) where error.problems.contains(where: { !$0.path.isEmpty }): keyProblems += 1
            default: break
            }
        }
        // Enough of the mutated files get past libyaml to the reader's own checks (some 4 % make a
        // deck, 15 % have problems at keys).
        #expect(decks >= Self.cases / 50 && keyProblems >= Self.cases / 10,
                "\(decks) decks and \(keyProblems) files with problems at keys in \(Self.cases) cases")
    }

    /// `DeckFile.load` of `path`, within the case limit.
    static func load(_ path: String) -> Result<DeckFile, DeckFileError>? {
        outcome(within: caseLimit) { () throws(DeckFileError) in try DeckFile.load(path: path, environment: [:]) }
    }

    /// The outcome of `read` on a thread of its own; nil when it has not returned within `limit` (the
    /// thread is then left to its hang).
    static func outcome(
        within limit: DispatchTimeInterval, _ read: @escaping @Sendable () throws(DeckFileError) -> DeckFile
    ) -> Result<DeckFile, DeckFileError>? {
        let outcome = Locked<Result<DeckFile, DeckFileError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        DetachedThread.run {
            let result = Result(catching: read)
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + limit) == .success else { return nil }
        return outcome.withLock { $0 }
    }

    /// What is wrong with `outcome`, the reading of `text` (nil when it is not UTF-8) named `file`;
    /// nil when nothing is.
    static func violation(in outcome: Result<DeckFile, DeckFileError>, of text: String?, file: String) -> String? {
        switch outcome {
        case .success(let deck):
            let ids = deck.panels.map(\.id)
            if ids.isEmpty { return "a deck without panels" }
            return Set(ids).count == ids.count ? nil : "a deck whose panels share an id: \(ids)"
        case .failure(let error):
            guard !error.problems.isEmpty else { return "an error without problems" }
            if let problem = error.problems.first(where: { $0.file != file }) { return "\(problem) does not name \(file)" }
            if let problem = error.problems.first(where: { $0.message.allSatisfy(\.isWhitespace) }) {
                return "\(problem) says nothing"
            }
            let lines = error.problems.map { $0.line ?? 0 }
            guard lines == lines.sorted() else { return "problems out of the file's order:\n\(error)" }
            guard let text, Self.problemsHaveLines(text) else { return nil }
            // libyaml also ends a line at CR, NEL and the Unicode line and paragraph separators, and
            // places an unexpected end of a text without a last line break on the line after it.
            let lineCount = text.unicodeScalars.count { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) } + 1
            if let problem = error.problems.first(where: { !(1...lineCount + 1).contains($0.line ?? 0) }) {
                return "\(problem) is not on one of the file's \(lineCount) lines:\n\(error)"
            }
            return nil
        }
    }

    /// Whether each problem of `text` has its line: libyaml places its syntax errors, and the reader
    /// the problems of a document; only an empty file's problem is the whole file's.
    static func problemsHaveLines(_ text: String) -> Bool {
        do {
            return try YAMLComposer.compose(text) != nil
        } catch {
            return true
        }
    }
}

/// Ways to break a deck file, applied one to six at a time: bytes flipped, inserted and deleted,
/// lines spliced in from other corpus files, keys given twice, lines repeated and re-indented, the
/// end cut off.
enum DeckFileMutation {
    /// Bytes that mean something to YAML, to UTF-8 or to the reader.
    static let meaningfulBytes = Array(":-?{}[],&*!|>'\"#%@`~$\\ \t\r\n\0".utf8) + [0x7F, 0x80, 0x85, 0xC3, 0xE2, 0xEF, 0xBB, 0xBF, 0xFF]
    static let tokens = [
        "- ", ": ", "&a ", "*a", "&b [*a, *a]\n", "<<: *a\n", "!!str ", "!!map ", "!x ", "{", "}", "[", "]", "\"", "'",
        "|\n", ">-\n", "---\n", "...\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "? ", "${X}", "${", "$$", "\t", "~",
        "null", "0x1F", ".inf", "1e999", "-0", "\u{FEFF}", "\u{2028}", "\u{85}", "\\u0000", "\"\\x", "\n  - id: x\n",
    ].map { Array($0.utf8) }

    static func mutate(_ original: [UInt8], splicing corpus: [[UInt8]], random: inout SeededRandom) -> [UInt8] {
        var bytes = original
        // Mostly one: nearly every byte of YAML matters, so each mutation more makes it likelier
        // that reading ends at a syntax error.
        let count = random.chance(0.6) ? 1 : random.chance(0.75) ? random.int(2...3) : random.int(4...6)
        for _ in 0..<count {
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            let line = random.int(0..<lines.count)
            switch random.int(0..<8) {
            case 0 where !bytes.isEmpty:
                let byte = random.chance(0.5) ? random.pick(meaningfulBytes) : UInt8.random(in: 0...255, using: &random)
                bytes[random.int(0..<bytes.count)] = byte
                continue
            case 1:
                let inserted = random.chance(0.7) ? random.pick(tokens)
                    : (0..<random.int(1...8)).map { _ in UInt8.random(in: 0...255, using: &random) }
                bytes.insert(contentsOf: inserted, at: random.int(0...bytes.count))
                continue
            case 2 where !bytes.isEmpty:
                let start = random.int(0..<bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + random.int(1...32)))
                continue
            case 3:
                let donor = random.pick(corpus).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let from = random.int(0..<donor.count)
                lines.insert(contentsOf: donor[from..<min(donor.count, from + random.int(1...6))].map(Array.init), at: line)
            case 4:
                // A line with a key, again right after itself: the same key twice in one mapping.
                guard let keyLine = lines.indices.filter({ lines[$0].contains(UInt8(ascii: ":")) }).randomElement(using: &random)
                else { continue }
                lines.insert(lines[keyLine], at: keyLine + 1)
            case 5:
                let run = lines[line..<min(lines.count, line + random.int(1...8))]
                lines.insert(contentsOf: Array(repeating: Array(run), count: random.int(1...3)).joined(), at: line)
            case 6:
                if random.chance(0.5) {
                    lines[line].insert(contentsOf: random.pick([[0x20], [0x20, 0x20], [0x09]]), at: 0)
                } else if lines[line].first == 0x20 {
                    lines[line].removeFirst(min(random.int(1...4), lines[line].prefix { $0 == 0x20 }.count))
                }
            default:
                bytes = Array(bytes.prefix(random.int(0...bytes.count)))
                continue
            }
            bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        }
        return bytes
    }
}
