import Foundation
import StateDeck
import StateDeckHistory
import StateDeckSQLite
@testable import StateDeckServer
import Testing

/// A program embedding StateDeck that ends after the server's stop alone, never closing the
/// history store it handed the server, loses nothing the history was given.
struct ServerStopSavesHistoryTests {
    @Test func aStopAloneSavesWhatTheHistoryWaitsToSave() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-stop-\(UUID().uuidString)"
        let left = folder + "-left"
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: left)
        }
        var configuration = SQLiteHistoryStore.Configuration()
        // Saves only when told: what the stop does not save, a process ending after it loses.
        configuration.startsWriter = false
        let store = try SQLiteHistoryStore(folder: folder, configuration: configuration)
        defer { store.close() }
        let files = try PublicFolder()
        defer { files.remove() }
        let deck = Deck("Nightly importer") {
            Panel("import", title: "Last import") { Info(summary: "Waiting for the first run") }
        }
        let server = try await DeckServer(deck: deck, configuration: ServerConfiguration(publicDirectory: files.url),
                                          history: store)
        try await deck.push(.loaded(Info(summary: "Run 1 imported 120 rows")), panel: "import")
        await server.stop()

        // What the process leaves when it ends now: the file and its log as they are.
        try FlappingRestartTests.copy(store, to: left)
        let after = try SQLiteHistoryStore(folder: left, configuration: configuration)
        defer { after.close() }
        #expect(try after.changes(of: "import", HistoryQuery()).entries.map(\.summary) == ["Run 1 imported 120 rows"])
    }
}
