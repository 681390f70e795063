import Foundation
import StateDeck
import TestSupport
import Testing

extension Live {
    /// The page's notifications on `/events`: a deck declared in Swift, served as a program
    /// embedding StateDeck serves it, with no notify declaration at all.
    @Suite struct NotificationEventsTests {
        /// The next `notification` event, skipping the panel and toast events around it.
        static func nextNotification(_ client: AsyncSSEClient) async throws -> DeckNotification? {
            while let event = try await client.nextEvent() {
                if event.event == "notification" { return try event.decode(DeckNotification.self) }
            }
            return nil
        }

        @Test func aPanelWithoutNotifyEntriesIsToldToThePageAtItsThirdFailedLoadInARow() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                _ = try await client.opening()
                for _ in 1...2 {
                    try await server.deck.push(.error(PanelError(.serverError)), panel: "api")
                }
                // Apart by more than the wire's millisecond, so the outages' times tell them apart.
                try await Task.sleep(for: .milliseconds(5))
                try await server.push("Between")
                // When "Between" began: a patch leaves `since` out when it did not change.
                var since: Date?
                var between: Date?
                while between == nil, let event = try await client.nextEvent() {
                    guard event.event == "panel", let panel = try? event.decode(WirePanel.self) else { continue }
                    since = panel.since ?? since
                    if panel.latestValidInfo?.summary == "Between" { between = since }
                }
                for _ in 1...3 {
                    try await server.deck.push(.error(PanelError(.serverError)), panel: "api")
                }
                let failure = try #require(try await Self.nextNotification(client))
                #expect(failure.event == .failure)
                #expect(failure.downSince >= (try #require(between)), "two failed loads were not told")
                #expect(failure.panel == "api" && failure.title == "API")
                #expect(failure.message == "API is down: \(ErrorKind.serverError.title)")
                try await server.push("Back")
                let recovery = try #require(try await Self.nextNotification(client))
                #expect(recovery.event == .recovery && recovery.panel == "api")
                #expect(recovery.downSince == failure.downSince)
            }
        }

        @Test func anOutageCarriesOverToTheDeckThatReplacesIt() async throws {
            try await LiveServer.run { server in
                let client = try await server.events()
                defer { client.close() }
                _ = try await client.opening()
                for _ in 1...3 {
                    try await server.deck.push(.error(PanelError(.serverError)), panel: "api")
                }
                let failure = try #require(try await Self.nextNotification(client))
                #expect(failure.event == .failure)
                // As an edited deck file is served: a new deck, whose api loads fine at once.
                await server.deckServer.replaceDeck(with: TestDeck().make())
                let recovery = try #require(try await Self.nextNotification(client))
                #expect(recovery.event == .recovery && recovery.panel == "api")
                #expect(recovery.downSince == failure.downSince, "the new deck's notifier continued the outage")
            }
        }
    }
}
