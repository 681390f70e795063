import Foundation
import StateDeck
import StateDeckServer

// Memory under churn: one panel goes through N state changes (loading, loaded, error in turn)
// through the whole server path (deck, state mirror encoding, SSE history ring), with the
// resident set size sampled every tenth of the way. Prints a markdown table.

let changes = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let samples = 10

func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

let publicDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("churn-public")
try FileManager.default.createDirectory(at: publicDirectory, withIntermediateDirectories: true)
try Data("<!doctype html>".utf8).write(to: publicDirectory.appendingPathComponent("index.html"))

let deck = Deck("Churn") {
    Panel("churn", title: "Churn") { Info(summary: "start") }.minimumLoadingTime(.zero)
}
var configuration = ServerConfiguration(publicDirectory: publicDirectory)
configuration.port = 0
let server = try await DeckServer(deck: deck, configuration: configuration)
try await server.start()

print("| state changes | RSS (KiB) |")
print("| ---: | ---: |")
print("| 0 | \(residentKiB()) |")
for change in 1...changes {
    let state: ViewState = switch change % 3 {
    case 0: .loading
    case 1: .loaded(Info(summary: "change \(change)", fields: [Info.Field("n", "\(change)")]))
    default: .error(PanelError(.serverError, detail: "change \(change)"))
    }
    try await deck.push(state, panel: "churn")
    if change % (changes / samples) == 0 {
        print("| \(change) | \(residentKiB()) |")
    }
}
await server.stop()
