import Foundation
import TestSupport
import Testing

/// `statedeck check FILE`: start-up's reading of a deck file, its answer and its exit status,
/// with nothing served, stored or run.
@Suite struct DeckCheckTests {
    /// A folder of its own, removed after, holding the deck file under test.
    private final class Folder: Sendable {
        let path = FileManager.default.temporaryDirectory.path + "/statedeck-check-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        /// Writes `bytes` to `name` in the folder and gives its path.
        func file(_ name: String, _ bytes: Data) throws -> String {
            try bytes.write(to: URL(fileURLWithPath: path + "/" + name))
            return path + "/" + name
        }

        func exists(_ name: String) -> Bool {
            FileManager.default.fileExists(atPath: path + "/" + name)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Two grouped panels and one without a group; the command panel would leave a file if it ran.
    static let validDeck = """
        title: Checked
        groups:
          - { id: services, title: Services }
        panels:
          - id: api
            group: services
            http: { url: "http://127.0.0.1:9/health" }
          - id: db
            group: services
            tcp: { host: 127.0.0.1, port: 5432 }
          - id: marker
            command: { shell: "touch ran" }
        """

    @Test func aValidDeckIsSummedUpOnStandardOutputWithStatus0AndNothingRunOrStored() async throws {
        let folder = try Folder()
        let deck = try folder.file("deck.yaml", Data(Self.validDeck.utf8))
        let run = try await StatedeckBinary.run(["check", deck])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\(deck): 3 panels in 1 group, OK\n")
        #expect(run.standardError.isEmpty)
        #expect(!folder.exists(".statedeck"), "the history store was opened")
        #expect(!folder.exists("ran"), "a source ran")
    }

    @Test func aBadKeyIsStatus2WithStartUpsMessagesNamingFileLineAndKey() async throws {
        let (deck, problems) = try await Self.refusal(of: """
            title: Broken
            panels:
              - id: api
                htp: { url: "http://127.0.0.1:9/" }
            """)
        #expect(problems.contains("\(deck):4: panels[0].htp: unknown key; did you mean http?"), "\(problems)")
    }

    /// What `statedeck check` says of a deck file of `yaml`, which it refuses (status 2, nothing
    /// on standard output) in the same words as a start-up serving it; and the file's path.
    private static func refusal(of yaml: String) async throws -> (deck: String, problems: String) {
        let folder = try Folder()
        let deck = try folder.file("deck.yaml", Data(yaml.utf8))
        let check = try await StatedeckBinary.run(["check", deck])
        #expect(check.status == 2)
        #expect(check.standardOutput.isEmpty)
        let startUp = try await StatedeckBinary.run([
            "--config", deck, "--port", "0", "--data", "none",
        ])
        #expect(startUp.status == 2)
        #expect(check.standardError == startUp.standardError)
        return (deck, check.standardError)
    }

    /// Patterns are PCRE2's: one it cannot compile (an unbounded lookbehind, a parenthesis left
    /// open) is refused with its reason and where in the pattern, as start-up refuses it.
    @Test func aPatternPCRE2CannotCompileNamesItsReasonAndOffset() async throws {
        let (deck, problems) = try await Self.refusal(of: """
            title: Patterns
            panels:
              - id: api
                http:
                  url: "http://127.0.0.1:9/"
                  expect:
                    - { body: { matches: "(?<=a+)b" } }
                    - { header: Server, matches: '^nginx/1\\.2[0-9]' }
                    - { pointer: /name, matches: "é(" }
            """)
        #expect(problems.components(separatedBy: "\n").filter { $0.hasPrefix(deck) } == [
            #"\#(deck):7: panels[0].http.expect[0].body.matches: "(?<=a+)b" is not a regular expression: lookbehind assertion is not fixed length at offset 0"#,
            #"\#(deck):9: panels[0].http.expect[2].matches: "é(" is not a regular expression: missing closing parenthesis at offset 2"#,
        ], "\(problems)")
    }

    @Test func maintenanceWindowsAreCountedAndABadOneNamesItsLineAndKey() async throws {
        let folder = try Folder()
        let windows = """

            maintenance:
              - { reason: Upgrade, groups: [services], from: 2026-12-01T02:00:00Z, to: 2026-12-01T04:00:00Z }
              - { reason: Backup, panels: [db], schedule: "0 3 * * 0", duration: 1h, timezone: UTC }
            """
        let deck = try folder.file("deck.yaml", Data((Self.validDeck + windows).utf8))
        let run = try await StatedeckBinary.run(["check", deck])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\(deck): 3 panels in 1 group, 2 maintenance windows, OK\n")
        let bad = try folder.file("bad.yaml", Data((Self.validDeck + windows.replacingOccurrences(of: "[db]", with: "[dbb]")).utf8))
        let check = try await StatedeckBinary.run(["check", bad])
        #expect(check.status == 2)
        #expect(check.standardError.contains("\(bad):15: maintenance[1].panels[0]: no panel dbb in the file's panels; did you mean db?"),
                "\(check.standardError)")
    }

    @Test func aStatusPageIsCountedAndABadOneNamesItsLineAndKey() async throws {
        let folder = try Folder()
        let status = """

            status:
              panels: [{ id: api, name: API }]
              groups: [{ id: services, name: Services }]
            """
        let deck = try folder.file("deck.yaml", Data((Self.validDeck + status).utf8))
        let run = try await StatedeckBinary.run(["check", deck])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "\(deck): 3 panels in 1 group, a status page of 2 lines, OK\n")
        let bad = try folder.file("bad.yaml", Data((Self.validDeck + status.replacingOccurrences(of: "id: api", with: "id: apj")).utf8))
        let check = try await StatedeckBinary.run(["check", bad])
        #expect(check.status == 2)
        #expect(check.standardError.contains("\(bad):14: status.panels[0].id: no panel apj in the file's panels; did you mean api?"),
                "\(check.standardError)")
    }

    @Test func aPlaceholderInACommandsArgumentsIsStatus2NamingTheVariableToReadInstead() async throws {
        let folder = try Folder()
        let incidents = """

            incidents:
              notify:
                - command: { run: [ssh, ops.example, "logger {message}"] }
            """
        let deck = try folder.file("deck.yaml", Data((Self.validDeck + incidents).utf8))
        let check = try await StatedeckBinary.run(["check", deck])
        #expect(check.status == 2)
        #expect(check.standardError.contains(#"""
            \#(deck):15: incidents.notify[0].command.run[2]: "{message}" is not filled into arguments; read $STATEDECK_MESSAGE instead (for example shell: 'echo "$STATEDECK_MESSAGE"')
            """#), "\(check.standardError)")
    }

    @Test func aMissingFileIsStatus2NamingIt() async throws {
        let folder = try Folder()
        let missing = folder.path + "/absent.yaml"
        let run = try await StatedeckBinary.run(["check", missing])
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(missing): no such file"), "\(run.standardError)")
    }

    @Test(arguments: [
        ("settings.toml", Data("[server]\nport = 8080\n".utf8), "settings.toml:2: YAML syntax"),
        ("logo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0x00]), "logo.png:1: is not UTF-8 text"),
    ])
    func aFileThatIsNotYAMLIsStatus2NamingTheLine(name: String, bytes: Data, problem: String) async throws {
        let folder = try Folder()
        let file = try folder.file(name, bytes)
        let run = try await StatedeckBinary.run(["check", file])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains(folder.path + "/" + problem), "\(run.standardError)")
    }

    @Test func withoutAFileItIsStatus2SayingWhatIsMissing() async throws {
        let run = try await StatedeckBinary.run(["check"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("Missing expected argument '<file>'"), "\(run.standardError)")
    }

    @Test func helpNamesTheCommand() async throws {
        let run = try await StatedeckBinary.run(["--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("statedeck check <file>"))
    }
}
