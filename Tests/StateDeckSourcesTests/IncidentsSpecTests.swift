import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

@Suite struct IncidentsSpecTests {
    static let panels = """
        panels:
          - { id: db, tcp: { host: localhost, port: 5432 } }
        """

    static func file(_ incidents: String) throws(DeckFileError) -> DeckFile {
        try DeckFile.parse(panels + "\nincidents:\n" + incidents, file: "deck.yaml", folder: "/stack", environment: ["HOOK": "s3cret"])
    }

    @Test func theTargetsAreReadAsAPanelsNotifyEntriesAndToldToTheDeck() throws {
        let file = try Self.file("""
              notify:
                - webhook: { url: "https://hooks.example/incidents", headers: { Authorization: "Bearer ${HOOK}" } }
                - command: { run: [notify-send, StateDeck] }
            """)
        #expect(file.incidents.notify.first == .webhook(url: URL(string: "https://hooks.example/incidents")!,
                                                       headers: ["Authorization": "Bearer s3cret"]))
        let deck = file.makeDeck()
        #expect(deck.configuration.incidentTargets.map(\.name) == ["webhook hooks.example", "command notify-send"])
        #expect(deck.notifyTargets.map(\.name) == ["webhook hooks.example", "command notify-send"],
                "a test send reaches them as the panels' targets")
        #expect(try DeckFile.parse(Self.panels, file: "deck.yaml", folder: "/stack").incidents.notify.isEmpty)
    }

    @Test(arguments: [
        ("  notify:\n    - webhook: { url: \"https://hooks.example/x\" }\n      after: { failures: 2 }",
         "deck.yaml:6: incidents.notify[0].after: unknown key"),
        ("  notify:\n    - { webhook: { url: \"ftp://hooks.example/x\" } }",
         "deck.yaml:5: incidents.notify[0].webhook.url:"),
        ("  notify:\n    - { mail: { to: ops@example.com } }",
         "deck.yaml:5: incidents.notify[0].mail: unknown key"),
        ("  notify: hooks.example", "deck.yaml:4: incidents.notify:"),
        ("  targets: []", "deck.yaml:4: incidents.targets: unknown key"),
    ])
    func aBadEntryIsReportedWithItsLineAndKey(incidents: String, problem: String) {
        #expect(throws: DeckFileError.self) { try Self.file(incidents) }
        do {
            _ = try Self.file(incidents)
        } catch {
            #expect(error.description.contains(problem), "\(error.description)")
        }
    }
}
