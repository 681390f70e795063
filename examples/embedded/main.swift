import Foundation
import StateDeck
import StateDeckServer

// A program that gives itself a live status page: two panels declared with the DSL, one of them
// fed from the program's own code. Run it with `swift run statedeck-embedded-example`.
let deck = Deck("Nightly importer") {
    Panel("disk", title: "Scratch disk") { Info(summary: "\(Int.random(in: 40...60)) % used") }
        .refresh(every: .seconds(5))
    Panel("import", title: "Last import") { Info(summary: "Waiting for the first run") }
}
let server = try await DeckServer(deck: deck, configuration: ServerConfiguration(port: 8080))
print("Status page on http://127.0.0.1:\(try await server.start())/")
for run in 1... {
    try await Task.sleep(for: .seconds(10))
    try await deck.push(.loaded(Info(summary: "Run \(run) imported \(run * 120) rows")), panel: "import")
}
