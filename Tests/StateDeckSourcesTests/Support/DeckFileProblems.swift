@testable import StateDeckSources

/// What a deck file named `deck.yaml` in `/stack` is reported for, one line each; none when it loads.
func deckFileProblems(_ yaml: String) -> [String] {
    do {
        _ = try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: [:])
        return []
    } catch {
        return error.problems.map(\.description)
    }
}
