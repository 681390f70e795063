import StateDeck
import Testing
@testable import StateDeckSources

@Suite("DeckFile dependencies and flapping")
struct DeckFileDependenciesTests {
    func deck(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: [:])
    }

    @Test func dependsOnComesFromThePanelThenItsGroupThenTheDefaults() async throws {
        let file = try deck("""
            defaults: { dependsOn: [db] }
            groups:
              - id: edge
                defaults: { dependsOn: [api, db] }
            panels:
              - { id: db, dependsOn: [], tcp: { host: localhost, port: 1 } }
              - { id: api, tcp: { host: localhost, port: 2 } }
              - { id: web, group: edge, tcp: { host: localhost, port: 3 } }
              - { id: cdn, group: edge, dependsOn: [web, web], tcp: { host: localhost, port: 4 } }
            """)
        #expect(file.makePanels().map(\.dependsOn) == [[], ["db"], ["api", "db"], ["web"]])
        let deck = file.makeDeck()
        #expect(deck.dependencies == ["api": ["db"], "web": ["api", "db"], "cdn": ["web"]])
    }

    @Test func anUnknownIdIsReportedWhereItIsWritten() {
        #expect(deckFileProblems("""
            panels:
              - id: api
                dependsOn: [db, cach]
                tcp: { host: localhost, port: 1 }
              - { id: cache, tcp: { host: localhost, port: 2 } }
            """) == [
            "deck.yaml:3: panels[0].dependsOn[0]: no panel db in panels (expected api, cache)",
            "deck.yaml:3: panels[0].dependsOn[1]: no panel cach in panels; did you mean cache?",
        ])
    }

    @Test func anUnknownIdInTheDefaultsIsReportedOnce() {
        #expect(deckFileProblems("""
            defaults:
              dependsOn: [postgres]
            panels:
              - { id: api, tcp: { host: localhost, port: 1 } }
              - { id: web, tcp: { host: localhost, port: 2 } }
            """) == ["deck.yaml:2: defaults.dependsOn[0]: no panel postgres in panels (expected api, web)"])
    }

    @Test func aPanelDependingOnItselfIsReported() {
        #expect(deckFileProblems("""
            panels:
              - { id: api, dependsOn: [api], tcp: { host: localhost, port: 1 } }
            """) == ["deck.yaml:2: panels[0].dependsOn[0]: api is the panel itself: a panel cannot depend on itself"])
        #expect(deckFileProblems("""
            groups:
              - id: data
                defaults:
                  dependsOn: [db]
            panels:
              - { id: db, group: data, tcp: { host: localhost, port: 1 } }
            """) == [
            "deck.yaml:4: groups[0].defaults.dependsOn[0]: panel db inherits this list and would depend on itself: "
                + "give it a dependsOn of its own",
        ])
    }

    @Test func aCycleIsReportedAtTheListOfItsFirstPanel() {
        #expect(deckFileProblems("""
            panels:
              - { id: web, dependsOn: [api], tcp: { host: localhost, port: 1 } }
              - id: api
                dependsOn: [cache]
                tcp: { host: localhost, port: 2 }
              - { id: cache, dependsOn: [api], tcp: { host: localhost, port: 3 } }
            """) == ["deck.yaml:4: panels[1].dependsOn: dependsOn makes a cycle: api → cache → api"])
    }

    @Test func flappingHasDefaultsKeysAndOff() throws {
        #expect(try deck("panels: [{ id: a, tcp: { host: localhost, port: 1 } }]").flapping == FlappingRule())
        let custom = try deck("""
            flapping: { changes: 3 }
            panels: [{ id: a, tcp: { host: localhost, port: 1 } }]
            """)
        #expect(custom.flapping == FlappingRule(changes: 3, within: .seconds(600)))
        #expect(custom.makeDeck().configuration.flapping == custom.flapping)
        let off = try deck("""
            flapping: off
            panels: [{ id: a, tcp: { host: localhost, port: 1 } }]
            """)
        #expect(off.flapping == nil)
        #expect(off.makeDeck().configuration.flapping == nil)
    }

    @Test func flappingsKeysAreChecked() {
        #expect(deckFileProblems("""
            flapping: { changes: 0, within: 2s }
            panels: [{ id: a, tcp: { host: localhost, port: 1 } }]
            """) == [
            "deck.yaml:1: flapping.changes: must be a whole number from 1 to 1000, not 0",
            "deck.yaml:1: flapping.within: must be at least 10 s",
        ])
        #expect(deckFileProblems("""
            flapping: sometimes
            panels: [{ id: a, tcp: { host: localhost, port: 1 } }]
            """) == ["deck.yaml:1: flapping: must be off or a mapping of changes and within"])
    }
}
