import Testing
@testable import StateDeck

@Suite(.stopsDecks) struct DeckBuilderTests {
    @Test func declaresPanelsWithIfAndFor() async {
        let showWorker = true
        let showCache = false
        let deck = Deck("My stack") {
            Panel("api", title: "API") { .one }
            if showWorker {
                Panel("worker", title: "Worker") { .one }
            }
            if showCache {
                Panel("cache", title: "Cache") { .one }
            } else {
                Panel("no-cache", title: "No cache") { .one }
            }
            for name in ["db1", "db2"] {
                Panel(name, title: name.uppercased()) { .one }
            }
        }
        #expect(deck.panelIds == ["api", "worker", "no-cache", "db1", "db2"])
        #expect(deck.title == "My stack")
        #expect(await deck.snapshot().panels.map(\.title) == ["API", "Worker", "No cache", "DB1", "DB2"])
    }

    @Test func groupsDeclareTheirPanelsHeading() async {
        let deck = Deck("Shop") {
            Panel("home", title: "Home") { .one }
            Group("payments", title: "Payments") {
                Panel("stripe", title: "Stripe") { .one }
                Panel("ledger", title: "Ledger") { .one }
            }
            Panel("search", title: "Search") { .one }.group(PanelGroup("backend"))
        }
        #expect(deck.groups == [PanelGroup("payments", title: "Payments"), PanelGroup("backend", title: "backend")])
        #expect(await deck.snapshot().panels.map(\.group) == [nil, "payments", "payments", "backend"])
    }

    @Test func notifyAddsATargetPerCallAndNoneTellsNoOne() throws {
        let chat = NotifierTests.RecordingTarget(name: "chat")
        let panel = Panel("api", title: "API") { .one }
            .notify(chat)
            .notify(chat, .down(.seconds(120)).reminding(every: .seconds(3_600), times: 3))
        #expect(Panel("api", title: "API") { .one }.notify.entries.isEmpty, "no entries by default")
        let entries = panel.notify.entries
        try #require(entries.count == 2)
        #expect(entries[0].rule == NotifyRule(failures: 3), "three failed loads in a row unless told otherwise")
        #expect(entries[1].rule == NotifyRule(failures: nil, down: .seconds(120), remind: .init(every: .seconds(3_600), times: 3)))
        #expect(entries.map(\.target.name) == ["chat", "chat"])
        guard case .none = panel.notify(.none).notify else {
            Issue.record("notify(.none) keeps entries")
            return
        }
        #expect(panel.notify(.none).notify(chat).notify.entries.count == 1, "a target after none starts a new list")
    }

    @Test func modifiersConfigureThePanel() {
        let panel = Panel("api", title: "API") { .one }
            .refresh(every: .seconds(5))
            .timeout(.seconds(2))
            .retry(RetryPolicy(attempts: 5))
            .minimumLoadingTime(.milliseconds(300))
            .presentation(loadingAfterInfo: .vertical(position: .top, contentOpacity: 0.3, alignment: .center, spacing: 32))
            .placeholder(.two)
            .recovery(.tryAgain, .custom("restart", "Restart") {})
        #expect(panel.refresh == .every(.seconds(5)))
        #expect(panel.timeout == .seconds(2))
        #expect(panel.retryPolicy.attempts == 5)
        #expect(panel.minimumLoadingTime == .milliseconds(300))
        #expect(panel.presentation == Presentation(
            loadingAfterInfo: .vertical(position: .top, contentOpacity: 0.3, alignment: .center, spacing: 32)
        ))
        #expect(panel.placeholder == .two)
        #expect(panel.recoveryOptions.map(\.id) == ["try-again", "restart"])
        #expect(panel.refresh(.manual).refresh == .manual)
    }

    @Test func aPanelIsAPlainValue() {
        var panel = Panel("api", title: "API") { .one }
        panel.title = "Public API"
        panel.itemActions = [ItemAction(id: "remove", label: "Remove") { _ in nil }]
        let deck = Deck("Programmatic", panels: [panel])
        #expect(deck.panelIds == ["api"])
    }

    @Test func handlersHearRecordedResults() async throws {
        let loaded = Recorder<Info>()
        let failed = Recorder<ErrorKind>()
        let deck = Deck("Hooks") {
            Panel("api", title: "API") { .one }
                .onLoaded { loaded.append($0) }
                .onError { failed.append($0.kind) }
        }
        try await deck.push(.loaded(.one), panel: "api")
        try await deck.push(.error(.missing), panel: "api")
        #expect(loaded.all == [.one])
        #expect(failed.all == [.notFound])
    }

    @Test func anItemActionReturningInfoShowsIt() async throws {
        let test = await TestDeck {
            Panel("p", title: "P") { .one }.itemAction("pick", "Pick") { itemId in Info(summary: itemId) }
        }
        try await test.deck.push(.loaded(Info(items: [Info.Item(id: "x", title: "X")])), panel: "p")
        try await test.deck.perform(action: "pick", item: "x", panel: "p")
        let state = await test.until { $0.latestValidInfo?.summary == "x" }
        #expect(state?.isLoading == false)
    }
}
