import StateDeck
import Testing
@testable import StateDeckSources

@Suite("DeckFile groups")
struct DeckFileGroupsTests {
    func deck(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: [:])
    }

    @Test func settingsComeFromThePanelThenItsGroupThenTheDefaults() throws {
        let panels = try deck("""
            defaults: { refresh: 15s, timeout: 5s }
            groups:
              - id: payments
                title: Payments
                defaults: { refresh: 1m }
              - id: search
            panels:
              - { id: stripe, group: payments, tcp: { host: localhost, port: 1 } }
              - { id: ledger, group: payments, refresh: 5s, tcp: { host: localhost, port: 2 } }
              - { id: index, group: search, tcp: { host: localhost, port: 3 } }
              - { id: db, tcp: { host: localhost, port: 4 } }
            """).makePanels()
        #expect(panels.map(\.group) == [
            PanelGroup("payments", title: "Payments"), PanelGroup("payments", title: "Payments"),
            PanelGroup("search"), nil,
        ])
        #expect(panels.map(\.refresh) == [.every(.seconds(60)), .every(.seconds(5)), .every(.seconds(15)), .every(.seconds(15))])
        #expect(panels.map(\.timeout) == Array(repeating: .seconds(6), count: 4), "the file's timeout and the core's margin")
    }

    @Test func withoutAGroupsListAPanelsGroupIsItsOwnTitle() throws {
        let panel = try #require(try deck("""
            defaults: { refresh: 20s }
            panels: [{ id: db, group: storage, tcp: { host: localhost, port: 4 } }]
            """).makePanels().first)
        #expect(panel.group == PanelGroup("storage", title: "storage"))
        #expect(panel.refresh == .every(.seconds(20)))
    }

    @Test func theDeckListsItsGroupsInTheOrderOfTheirFirstPanels() async throws {
        let deck = try deck("""
            groups: [{ id: a, title: First declared }, { id: b, title: Second declared }]
            panels:
              - { id: one, group: b, refresh: manual, tcp: { host: localhost, port: 1 } }
              - { id: two, refresh: manual, tcp: { host: localhost, port: 2 } }
              - { id: three, group: a, refresh: manual, tcp: { host: localhost, port: 3 } }
            """).makeDeck()
        #expect(deck.groups == [PanelGroup("b", title: "Second declared"), PanelGroup("a", title: "First declared")])
        let snapshot = await deck.snapshot()
        #expect(snapshot.groups == deck.groups)
        #expect(snapshot.panels.map(\.group) == ["b", nil, "a"])
    }
}
