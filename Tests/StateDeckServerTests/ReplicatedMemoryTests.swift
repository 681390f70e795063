import StateDeck
@testable import StateDeckServer
import Testing

/// What a replica carries of each panel, for the member that leads next to continue it from.
@Suite struct ExportedMemoryTests {
    private static func deck() -> Deck {
        Deck("Replicated") {
            Panel("api", title: "API") { Info(summary: "never loaded") }
        }
    }

    @Test func aPanelIsContinuedFromItsRecordAsItWasShown() async throws {
        let running = Self.deck()
        try await running.push(.loaded(Info(summary: "12 queued")), panel: "api")
        try await running.push(.error(PanelError(.timeout, title: "Timed out", message: "No answer in 5 s")), panel: "api")
        let shown = try await running.panelState("api")
        let panel = ExportedPanel(id: "api", compact: [], document: [], headline: PanelHeadline(shown),
                                    memoryRecord: ExportedMemory(shown).encoded)

        let memory = try #require(panel.memory)
        let next = Self.deck()
        await next.restore(["api": memory])
        let continued = try await next.panelState("api")
        #expect(continued.restored)
        #expect(continued.phase == .error)
        #expect(continued.latestError?.title == "Timed out")
        #expect(continued.latestInfo?.summary == "12 queued")
        #expect(continued.health == shown.health)
        #expect(continued.history.map(\.state) == shown.history.map(\.state))
        for (kept, was) in zip(continued.history, shown.history) {
            #expect(abs(kept.at.timeIntervalSince(was.at)) < 0.001, "times kept to the millisecond")
        }
    }

    @Test func aPanelWithoutARecordHasNoMemory() {
        let panel = ExportedPanel(id: "api", compact: [], document: Array("{}".utf8),
                                    headline: PanelHeadline(label: "API", health: .up), memoryRecord: [])
        #expect(panel.memory == nil)
    }
}
