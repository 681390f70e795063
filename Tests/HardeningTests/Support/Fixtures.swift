import Foundation
import Locking
import StateDeck
@testable import StateDeckServer
import TestSupport

/// Decks and small pieces the suites share.
enum Fixtures {
    /// The page folder every live deck server of these suites serves.
    static let pageFiles = [
        "index.html": "<!doctype html><title>StateDeck hardening</title><script src=\"app.js\"></script>\n",
        "app.js": "console.log('hardening');\n",
    ]

    /// One panel `a` whose load answers at once.
    static func instantDeck() -> Deck {
        Deck("Hardening") {
            Panel("a", title: "A") { Info(summary: "A is fine") }
                .minimumLoadingTime(.zero)
                .retry(.none)
        }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Locked(0)

    @discardableResult
    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    var count: Int { value.current }
}

/// A latch that waits without looking at cancellation: a stand-in for a loader stuck in code that
/// never checks for it. `open()` lets every waiter (and every later one) through.
final class Latch: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    var waiting: Int { state.withLock { $0.waiters.count } }
}

extension HTTPTestResponse {
    /// The security headers this response lacks or carries with another value.
    var missingSecurityHeaders: [String] {
        SecurityHeaders.all.filter { header($0.name) != $0.value }.map(\.name)
    }
}
