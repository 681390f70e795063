import Foundation
import StateDeck
import StateDeckHistory
import Testing
@testable import StateDeckSources

@Suite("DeckFile panels")
struct DeckFilePanelsTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func deck(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: folder.path)
    }

    @Test func panelsCarryTheFilesSettings() throws {
        let panel = try #require(try deck("""
            panels:
              - id: api
                title: API
                http: { url: "http://127.0.0.1:9/health", timeout: 2s }
                refresh: manual
                retry: { attempts: 5, delay: 2s, maxDelay: 1m, jitter: 0.1 }
                minimumLoading: 0ms
                loading: { afterInfo: { type: vertical, position: top, spacing: 4 } }
                placeholder: { summary: Loading…, fields: [{ label: Status, value: "200" }] }
                recovery:
                  - { id: restart, label: Restart, role: primary, run: [true] }
                actions:
                  - { id: remove, label: Remove, run: [true] }
            """).makePanels().first)
        #expect(panel.id == "api")
        #expect(panel.title == "API")
        #expect(panel.refresh == .manual)
        #expect(panel.timeout == .seconds(3))
        #expect(panel.retryPolicy == RetryPolicy(attempts: 5, initialDelay: .seconds(2), maximumDelay: .seconds(60), jitter: 0.1))
        #expect(panel.minimumLoadingTime == .zero)
        #expect(panel.presentation.loadingAfterInfo == .vertical(position: .top, spacing: 4))
        #expect(panel.placeholder == Info(summary: "Loading…", fields: [Info.Field("Status", "200")]))
        #expect(panel.recoveryOptions.map(\.id) == ["restart"])
        #expect(panel.recoveryOptions.first?.role == .primary)
        let card = ErrorPresenter(panelOptions: panel.recoveryOptions).card(for: PanelError(.unauthorized))
        #expect(card.options.map(\.label) == ["Restart", "Check again", "Dismiss"], "the catalogue's buttons follow")
        #expect(panel.itemActions.map(\.id) == ["remove"])
    }

    @Test func eachPanelSaysWhatItLoadsFromForItsMetrics() async throws {
        try "{}".write(toFile: folder.path + "/status.json", atomically: true, encoding: .utf8)
        let file = try deck("""
            panels:
              - { id: web, http: { url: "http://127.0.0.1:9/" } }
              - { id: port, tcp: { host: 127.0.0.1, port: 9 } }
              - { id: job, command: { run: [true] } }
              - { id: build, file: { path: status.json } }
            """)
        #expect(file.makePanels().map(\.sourceKind) == ["http", "tcp", "command", "file"])
        let deck = file.makeDeck()
        #expect(deck.sourceKinds == ["web": "http", "port": "tcp", "job": "command", "build": "file"])
    }

    @Test func recoveryOptionsFitKindsAndRelabelTheCatalogues() throws {
        let panel = try #require(try deck("""
            panels:
              - id: disk
                command: { run: [df] }
                recovery:
                  - { id: free-space, run: [true] }
                  - { id: restart, label: Restart, run: [true], kinds: [unreachable, timeout] }
                  - { id: try-again, label: Retry now, role: primary }
                  - { id: cancel, label: Hide }
            """).makePanels().first)
        let presenter = ErrorPresenter(panelOptions: panel.recoveryOptions)
        let full = presenter.card(for: PanelError(.outOfSpace)).options
        #expect(full == [
            ErrorCard.Option(id: "free-space", label: "Free space", role: .primary),
            ErrorCard.Option(id: "try-again", label: "Retry now", role: .primary),
            ErrorCard.Option(id: "cancel", label: "Hide", role: .cancel),
        ])
        #expect(presenter.card(for: PanelError(.timeout)).options.map(\.id) == ["restart", "try-again", "cancel"])
        #expect(presenter.card(for: PanelError(.commandFailed)).options.map(\.id) == ["try-again", "cancel"])
    }

    @Test func theDeckSaysHowLongToastsStayAndWhere() async throws {
        let file = try deck("""
            toasts: { duration: 6s, position: bottom }
            panels: [{ id: db, tcp: { host: localhost, port: 9 } }]
            """)
        #expect(file.toastDuration == .seconds(6) && file.toastPosition == .bottom)
        let deck = file.makeDeck()
        #expect(deck.configuration.toastDuration == .seconds(6) && deck.configuration.toastPosition == .bottom)
        let plain = try self.deck("panels: [{ id: db, tcp: { host: localhost, port: 9 } }]")
        #expect(plain.toastDuration == .seconds(4) && plain.toastPosition == .top)
    }

    @Test func theDeckSaysHowLongHistoryIsKept() throws {
        let file = try deck("""
            history: { changes: 14d, minutes: 36h, days: 3650d }
            panels: [{ id: db, tcp: { host: localhost, port: 9 } }]
            """)
        #expect(file.historyRetention.changes == .seconds(14 * 86_400))
        #expect(file.historyRetention.minutes == .seconds(36 * 3_600))
        #expect(file.historyRetention.hours == HistoryRetention().hours, "a key left out keeps its default")
        #expect(file.historyRetention.days == .seconds(3_650 * 86_400))
    }

    @Test func statedecksOwnPanelIsOnUnlessTheFileTurnsItOff() throws {
        let on = try deck("panels: [{ id: db, tcp: { host: localhost, port: 9 } }]")
        #expect(on.statedeckPanel)
        let off = try deck("""
            statedeckPanel: false
            panels: [{ id: statedeck, group: statedeck, tcp: { host: localhost, port: 9 } }]
            """)
        #expect(!off.statedeckPanel, "and its id and group are the file's to use")
        #expect(off != on)
    }

    @Test func theDeckEndsWithThePanelsAppended() async throws {
        let appended = Panel("statedeck", title: "StateDeck itself") { Info() }
        let deck = try deck("panels: [{ id: db, tcp: { host: localhost, port: 9 } }]").makeDeck(appending: [appended])
        #expect(await deck.snapshot().panels.map(\.id) == ["db", "statedeck"])
    }

    @Test func aRecoveryCommandRunsAndThePanelReloads() async throws {
        let deck = try deck("""
            panels:
              - id: jobs
                command: { run: [test, -f, fixed] }
                refresh: manual
                retry: none
                minimumLoading: 0ms
                recovery:
                  - { id: fix, label: Fix it, run: [touch, fixed] }
            """).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        #expect(await events.panel("jobs") { $0.latestValidError?.kind == .commandFailed } != nil)
        try await deck.recover(panel: "jobs", option: "fix")
        #expect(await events.toast("Fix it: done") != nil)
        #expect(await events.panel("jobs") { $0.latestValidInfo != nil } != nil)
        await deck.stop()
    }

    @Test func itemActionsGetTheItemId() async throws {
        let deck = try deck("""
            panels:
              - id: files
                command: { shell: "printf 'alpha\\\\nbeta\\\\n'", output: lines }
                refresh: manual
                minimumLoading: 0ms
                actions:
                  - { id: touch, label: Touch, shell: 'touch -- "$STATEDECK_ITEM_ID"', message: Touched }
                  - { id: mark, label: Mark, shell: 'touch "marked-$STATEDECK_ITEM_ID"' }
                  - { id: fail, label: Fail, run: ["false"] }
            """).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        let loaded = await events.panel("files") { $0.latestValidInfo != nil }
        #expect(loaded?.latestValidInfo?.items?.map(\.id) == ["alpha", "beta"])
        try await deck.perform(action: "touch", item: "beta", panel: "files")
        #expect(await events.toast("Touched") != nil)
        try await deck.perform(action: "mark", item: "alpha", panel: "files")
        #expect(await events.toast("Mark alpha: done") != nil)
        try await deck.perform(action: "fail", item: "alpha", panel: "files")
        #expect(await events.toast("Fail alpha failed: exited with status 1") != nil)
        #expect(FileManager.default.fileExists(atPath: folder.path("beta")))
        #expect(FileManager.default.fileExists(atPath: folder.path("marked-alpha")))
        await deck.stop()
    }

    @Test func customToastsReplaceTheDefaults() async throws {
        let deck = try deck("""
            panels:
              - id: jobs
                command: { run: ["false"] }
                refresh: manual
                retry: none
                minimumLoading: 0ms
                toasts: { failure: The jobs are stuck }
            """).makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        #expect(await events.toast("The jobs are stuck") != nil)
        await deck.stop()
    }

    @Test func aWatchedFileReloadsEveryPanelShowingIt() async throws {
        try folder.write("first", to: "status.txt")
        let file = try deck("""
            panels:
              - id: status
                file: { path: status.txt }
                refresh: manual
                minimumLoading: 0ms
              - id: same
                file: { path: status.txt }
                refresh: manual
                minimumLoading: 0ms
            """)
        let deck = file.makeDeck()
        let events = await DeckEvents(observing: deck)
        await deck.start()
        let watching = Task { await file.watchFiles(reloading: deck) }
        defer { watching.cancel() }
        for id in ["status", "same"] {
            #expect(await events.panel(id) { $0.latestValidInfo?.text == "first" } != nil, "\(id)")
        }
        try folder.write("second version", to: "status.txt")
        for id in ["status", "same"] {
            #expect(await events.panel(id) { $0.latestValidInfo?.text == "second version" } != nil, "\(id)")
        }
        await deck.stop()
    }
}
