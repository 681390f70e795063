import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

/// No text a command is handed (a panel's title, an error's words, a list item's id) ever runs as
/// code: shell scripts read it from variables, and placeholders fill only arguments of programs
/// run directly. Each test runs real commands in a folder of its own and proves, by the files
/// there, that every hostile value arrived whole and nothing in it ran.
@Suite("Shell safety")
struct ShellSafetyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Values that run commands, or break quoting, if they ever reach a shell as code: command
    /// substitution both ways, a command list and a comment, an unbalanced quote, a newline
    /// followed by a command, a variable of the server's and a glob.
    static let hostile = [
        "API $(touch x) `touch y`; touch z #",
        "Bob's API",
        "two\nlines; touch n",
        #"quote " and \"; touch q; ""#,
        "$HOME * ~",
    ]

    /// A notification of `title` failing with an error whose title and message are hostile too.
    static func notification(titled title: String) -> DeckNotification {
        DeckNotification(event: .failure, panel: "api", title: title, group: nil,
                         error: .init(kind: "timeout", title: "Timed out; touch e", message: "$(touch m)\n`touch k`"),
                         downSince: Date(timeIntervalSince1970: 1_795_341_600), at: Date(timeIntervalSince1970: 1_795_341_660))
    }

    /// The notify command of a deck file's only panel, run in the test's folder.
    func notifyCommand(_ command: String) throws -> CommandTarget {
        let file = try DeckFile.parse("""
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: \(command) }]
            """, file: "deck.yaml", folder: folder.path)
        let entry = try #require(file.panels.first?.settings.notify.entries.first)
        guard case .command(let spec) = entry.target else {
            Issue.record("not a command: \(entry.target)")
            throw CancellationError()
        }
        return CommandTarget(command: spec)
    }

    /// The files in the folder other than those named: what a value that ran would have made.
    func strayFiles(besides expected: Set<String>) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).subtracting(expected)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: folder.path(name), encoding: .utf8)
    }

    @Test(arguments: hostile)
    func aShellScriptReadsEveryValueWholeFromItsVariables(_ title: String) async throws {
        let target = try notifyCommand(#"""
            { shell: 'printf "%s|%s|%s|%s" "$STATEDECK_TITLE" "$STATEDECK_MESSAGE" "$STATEDECK_ERROR_TITLE" "$STATEDECK_ERROR_MESSAGE" > seen' }
            """#)
        let notification = Self.notification(titled: title)
        try await target.deliver(notification)
        #expect(try read("seen") == "\(title)|\(notification.message)|Timed out; touch e|$(touch m)\n`touch k`")
        #expect(try strayFiles(besides: ["seen"]).isEmpty)
    }

    @Test(arguments: hostile)
    func placeholdersFillTheArgumentsOfAProgramRunDirectly(_ title: String) async throws {
        let target = try notifyCommand(#"""
            { run: [sh, -c, 'printf "%s|%s" "$1" "$2" > seen', sh, "{title}", "Subject: {message} ({event}, {panel})"] }
            """#)
        let notification = Self.notification(titled: title)
        try await target.deliver(notification)
        #expect(try read("seen") == "\(title)|Subject: \(notification.message) (failure, api)")
        #expect(try strayFiles(besides: ["seen"]).isEmpty)
    }

    @Test func aShellScriptMadeInSwiftKeepsItsPlaceholdersAsWritten() async throws {
        // The deck file refuses this script; a program built with the DSL gets no check, and
        // still no value reaches the script: the shell reads `{title}` as plain words.
        let script = "printf '%s' {title} > seen; printf '%s' \"$STATEDECK_TITLE\" > variable"
        let target = CommandTarget(command: .shell(script, workingDirectory: folder.path))
        let title = Self.hostile[0]
        try await target.deliver(Self.notification(titled: title))
        #expect(try read("seen") == "{title}")
        #expect(try read("variable") == title)
        #expect(try strayFiles(besides: ["seen", "variable"]).isEmpty)
    }

    @Test func theProgramItselfIsNeverAPlaceholdersValue() {
        let command = CommandSpec(arguments: ["{title}", "{title}"]).giving([.title: "/tmp/evil"])
        #expect(command.arguments == ["{title}", "/tmp/evil"])
    }

    @Test(arguments: [
        (["/bin/sh", "-c", "script"], 2), (["bash", "-eu", "-o", "pipefail", "-c", "script", "name"], 5),
        (["zsh", "-lc", "script"], 2), (["sh", "-c", "--", "script"], 3), (["dash", "--norc", "-c", "script"], 3),
        (["sh", "script.sh", "-c"], nil), (["bash", "-e", "script.sh"], nil), (["python3", "-c", "code"], nil),
        (["/usr/bin/env", "sh", "-c", "script"], nil),
    ] as [([String], Int?)])
    func aShellsScriptIsFoundAsTheShellFindsIt(_ arguments: [String], _ script: Int?) {
        #expect(CommandSpec(arguments: arguments).scriptIndex == script)
    }

    @Test func anItemActionHandsAHostileItemIdToItsCommandWhole() async throws {
        let ids = Self.hostile.filter { !$0.contains("\n") }
        try folder.write(ids.joined(separator: "\n") + "\n", to: "items.txt")
        let deck = try DeckFile.parse("""
            panels:
              - id: files
                command: { run: [cat, items.txt], output: lines }
                refresh: manual
                minimumLoading: 0ms
                actions:
                  - { id: shell, label: Shell, shell: 'printf "%s\\n" "$STATEDECK_ITEM_ID" >> by-shell' }
                  - { id: run, label: Run, run: [sh, -c, 'printf "%s\\n" "$1" >> by-run', sh, "{item}"] }
            """, file: "deck.yaml", folder: folder.path).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        let loaded = await events.panel("files") { $0.latestValidInfo != nil }
        let items = try #require(loaded?.latestValidInfo?.items?.map(\.id))
        #expect(items.count == ids.count)
        for item in items {
            for action in ["shell", "run"] {
                try await deck.perform(action: action, item: item, panel: "files")
                #expect(await events.toast("\(action.capitalized) \(item): done") != nil)
            }
        }
        await deck.stop()
        #expect(try read("by-shell") == items.map { $0 + "\n" }.joined())
        #expect(try read("by-run") == items.map { $0 + "\n" }.joined())
        #expect(try strayFiles(besides: ["items.txt", "by-shell", "by-run"]).isEmpty)
    }
}
