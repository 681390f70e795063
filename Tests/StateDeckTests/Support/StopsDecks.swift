import Locking
import Testing
@testable import StateDeck

/// Stops every `TestDeck` a test made once the test ends. A load or handler left asleep on a test
/// clock that no one advances any more would otherwise outlive its test, and the sanitizer runs
/// would report it as leaked.
struct StopsDecks: SuiteTrait, TestTrait, TestScoping {
    /// The decks made by the running test, held weakly: a test may check that a deck goes away.
    @TaskLocal static var made: Locked<[WeakDeck]>?

    struct WeakDeck {
        weak var deck: Deck?
    }

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        let made = Locked<[WeakDeck]>([])
        var failure: (any Error)?
        do {
            try await Self.$made.withValue(made) { try await function() }
        } catch {
            failure = error
        }
        for deck in made.current.compactMap(\.deck) { await deck.stop() }
        if let failure { throw failure }
    }
}

extension Trait where Self == StopsDecks {
    /// Every deck a test made is stopped when it ends.
    static var stopsDecks: Self { StopsDecks() }
}
