import Foundation
import StateDeck
import StateDeckNotifications
import TestSupport
import Testing
@testable import StateDeckSources

/// No text a command is handed (an incident's title and words, a list item's id, the deck's
/// title) ever runs as code, whatever the program: values reach a command only in `STATEDECK_*`
/// variables (a notify command's JSON on standard input besides), never in an argument, and a deck
/// file that writes a placeholder in an argument is refused. The live tests run real commands
/// through programs that run text of their own, in a folder of their own, and prove by the files
/// there that every hostile value arrived whole and nothing in it ran.
@Suite("Shell safety")
struct ShellSafetyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Values that run commands, or break quoting, if they ever reach a shell as code: a command
    /// list and a comment, command substitution both ways, an unbalanced quote, a variable of the
    /// server's and a glob, and a placeholder of its own.
    static let hostile = [
        "DB slow; id > owned.txt; #",
        "API $(touch x) `touch y`; touch z #",
        "Bob's API",
        #"quote " and \"; touch q; ""#,
        "$HOME * ~ {message}",
    ]

    /// Programs that run an argument, or their input, as a command or as code.
    enum Wrapper: String, CaseIterable, Sendable {
        case timeout, env, nice, xargs, python3

        /// The program's `run` that writes the value of `variable`, whole, to the file `out`.
        func run(writing variable: String) -> [String] {
            let script = #"printf %s "$\#(variable)" > out"#
            return switch self {
            case .timeout: ["timeout", "10", "sh", "-c", script]
            case .env: ["env", "bash", "-c", script]
            case .nice: ["nice", "-n", "5", "sh", "-c", script]
            // Its standard input (a notification's JSON, or nothing) becomes the script's $0, unread.
            case .xargs: ["xargs", "-0", "sh", "-c", script]
            case .python3: ["python3", "-c", "import os; open('out', 'w').write(os.environ['\(variable)'])"]
            }
        }

        /// The same program given `{placeholder}` inside the text it runs.
        func run(filling placeholder: String) -> [String] {
            switch self {
            case .timeout: ["timeout", "10", "sh", "-c", "echo \(placeholder) >> f"]
            case .env: ["env", "bash", "-c", "echo \(placeholder)"]
            case .nice: ["nice", "sh", "-c", "logger \(placeholder)"]
            case .xargs: ["xargs", "-I", "{}", "sh", "-c", "echo {} \(placeholder)"]
            case .python3: ["python3", "-c", "print('\(placeholder)')"]
            }
        }
    }

    /// `arguments` as a deck file's flow list: a JSON array, which YAML reads as written.
    static func yaml(_ arguments: [String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(arguments), as: UTF8.self)
    }

    func deckFile(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: folder.path)
    }

    /// What the command wrote, after which the folder is as before it ran.
    func takeOut() throws -> String {
        let written = try String(contentsOfFile: folder.path("out"), encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder.path("out"))
        return written
    }

    /// The files in the folder other than those named: what a value that ran would have made.
    func strayFiles(besides expected: Set<String>) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).subtracting(expected)
    }

    // MARK: - Refused at load

    /// Each place a deck file gives a command values, with `run` as that command.
    static func decks(running run: String) -> [(place: String, yaml: String)] {
        [
            ("panels[0].notify[0].command", """
                panels:
                  - id: api
                    tcp: { host: localhost, port: 1 }
                    notify: [{ command: { run: \(run) } }]
                """),
            ("incidents.notify[0].command", """
                panels: [{ id: api, tcp: { host: localhost, port: 1 } }]
                incidents:
                  notify: [{ command: { run: \(run) } }]
                """),
            ("panels[0].actions[0]", """
                panels:
                  - id: jobs
                    command: { run: [ls] }
                    actions: [{ id: act, label: Act, run: \(run) }]
                """),
        ]
    }

    @Test(arguments: Wrapper.allCases)
    func aPlaceholderInTheTextAWrapperRunsIsRefusedAtLoad(_ wrapper: Wrapper) throws {
        for (place, yaml) in Self.decks(running: "RUN") {
            let placeholder = place.hasSuffix("actions[0]") ? CommandPlaceholder.item : .message
            let run = wrapper.run(filling: placeholder.name)
            let index = try #require(run.firstIndex { $0.contains(placeholder.name) })
            let refusal = #"\#(place).run[\#(index)]: "\#(placeholder.name)" is not filled into arguments; read $\#(placeholder.variable) instead (for example shell: 'echo "$\#(placeholder.variable)"')"#
            #expect { try deckFile(yaml.replacingOccurrences(of: "RUN", with: try Self.yaml(run))) } throws: { error in
                "\(error)".contains(refusal)
            }
        }
    }

    @Test func aPlaceholderInTheCommandSSHRunsIsRefusedAtLoad() throws {
        for (place, yaml) in Self.decks(running: "RUN") {
            let placeholder = place.hasSuffix("actions[0]") ? CommandPlaceholder.item : .title
            let run = ["ssh", "db.example", "--", "systemctl restart \(placeholder.name)"]
            #expect { try deckFile(yaml.replacingOccurrences(of: "RUN", with: try Self.yaml(run))) } throws: { error in
                "\(error)".contains(#"\#(place).run[3]: "\#(placeholder.name)" is not filled into arguments"#)
            }
        }
    }

    @Test func aProgramMadeInSwiftGetsItsArgumentsAsWritten() async throws {
        // The deck file refuses this; a program built with the DSL gets no check, and still no
        // value reaches an argument: the shell reads `{title}` as plain words.
        let script = "printf '%s' {title} > seen; printf '%s' \"$STATEDECK_TITLE\" > out"
        let target = CommandTarget(command: .shell(script, workingDirectory: folder.path))
        let title = Self.hostile[1]
        try await target.deliver(DeckNotification(event: .failure, panel: "api", title: title, group: nil, error: nil,
                                                  downSince: Date(), at: Date()))
        #expect(try String(contentsOfFile: folder.path("seen"), encoding: .utf8) == "{title}")
        #expect(try takeOut() == title)
        #expect(try strayFiles(besides: ["seen"]).isEmpty)
    }

    // MARK: - Live: the values reach the wrappers whole

    @Test(arguments: Wrapper.allCases)
    func anIncidentsHostileTitleAndWordsReachAWrapperWhole(_ wrapper: Wrapper) async throws {
        let deck = try deckFile("""
            panels: [{ id: api, command: { run: ["true"] }, refresh: manual }]
            incidents:
              notify: [{ command: { run: \(try Self.yaml(wrapper.run(writing: "STATEDECK_MESSAGE"))) } }]
            """).makeDeck()
        let log = NotificationLog()
        let announcer = IncidentAnnouncer(targets: deck.configuration.incidentTargets, log: log) { failure in
            Issue.record("\(failure)")
        }
        await announcer.follow(deck)
        for (told, title) in Self.hostile.enumerated() {
            let words = "Looking; touch w\n$(touch v) " + title
            _ = try await deck.openIncident(title: title, panels: [], status: .investigating, message: words, author: "ana")
            #expect(await eventually { log.entries.count == told + 1 })
            #expect(try takeOut() == "Announcement opened: \(title) (investigating): \(words)")
        }
        announcer.stop()
        #expect(log.entries.allSatisfy { $0.outcome == .sent })
        #expect(try strayFiles(besides: []).isEmpty)
    }

    @Test(arguments: Wrapper.allCases)
    func anItemIdPrintedByACommandSourceReachesAWrapperWhole(_ wrapper: Wrapper) async throws {
        try folder.write(Self.hostile.joined(separator: "\n") + "\n", to: "items.txt")
        let deck = try deckFile("""
            panels:
              - id: files
                command: { run: [cat, items.txt], output: lines }
                refresh: manual
                minimumLoading: 0ms
                actions: [{ id: act, label: Act, run: \(try Self.yaml(wrapper.run(writing: "STATEDECK_ITEM_ID"))) }]
            """).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        let loaded = await events.panel("files") { $0.latestValidInfo != nil }
        let items = try #require(loaded?.latestValidInfo?.items?.map(\.id))
        #expect(items == Self.hostile)
        for item in items {
            try await deck.perform(action: "act", item: item, panel: "files")
            #expect(await events.toast("Act \(item): done") != nil)
            #expect(try takeOut() == item)
        }
        await deck.stop()
        #expect(try strayFiles(besides: ["items.txt"]).isEmpty)
    }

    @Test(arguments: Wrapper.allCases)
    func theDecksTitleReachesAWrapperWholeThroughATestSend(_ wrapper: Wrapper) async throws {
        for title in Self.hostile {
            let deck = try deckFile("""
                title: \(try Self.yaml([title]).dropFirst().dropLast())
                panels:
                  - id: api
                    tcp: { host: localhost, port: 1 }
                    notify: [{ command: { run: \(try Self.yaml(wrapper.run(writing: "STATEDECK_TITLE"))) } }]
                """).makeDeck()
            #expect(deck.title == title)
            let target = try #require(deck.notifyTargets.first)
            let sent = await TestSend.send(.test(ofDeck: deck.title, at: Date()), to: target, clock: ContinuousClock())
            #expect(sent.outcome == .sent)
            #expect(try takeOut() == title)
        }
        #expect(try strayFiles(besides: []).isEmpty)
    }
}
