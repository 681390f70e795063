import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

/// The JSON of the panel `db` as the API sends it (its `PanelState`), once it loaded or failed,
/// in a deck whose one panel takes `source` (a line of YAML), its `${VAR}`s from `environment`.
func panelJSON(source: String, environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
    let yaml = "defaults: { refresh: manual, retry: none, minimumLoading: 0ms }\npanels:\n  - id: db\n    \(source)\n"
    let deck = try DeckFile.parse(yaml, file: "deck.yaml", folder: "/tmp", environment: environment).makeDeck()
    let events = await DeckEvents(observing: deck)
    await deck.start()
    let state = await events.panel("db") { $0.latestInfo != nil || $0.latestError != nil }
    await deck.stop()
    return String(decoding: try JSONEncoder().encode(try #require(state, sourceLocation: sourceLocation)), as: UTF8.self)
}

/// Expects the JSON of a panel whose `${PASSWORD}` is the tests' password, and of one whose
/// `${PASSWORD}` is a wrong one, to show each URL masked and neither password.
func expectNoPasswordInPanelJSON(source: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for password in [testPassword, "wrong-\(testPassword.reversed())"] {
        let json = try await panelJSON(source: source, environment: ["PASSWORD": password], sourceLocation: sourceLocation)
        #expect(json.contains(":***@127.0.0.1"), "\(json)", sourceLocation: sourceLocation)
        #expect(!json.contains(password), "\(json)", sourceLocation: sourceLocation)
    }
}
