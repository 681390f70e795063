import Clocks
@testable import StateDeck

extension Info {
    static let one = Info(summary: "one")
    static let two = Info(summary: "two")
}

extension PanelError {
    static let server = PanelError(.serverError)
    static let missing = PanelError(.notFound)
}

extension TestClock<Duration> {
    /// Sleeps until `offset` after the clock's zero, whenever the sleep starts.
    func sleep(untilOffset offset: Duration) async throws {
        try await sleep(until: Instant(offset: offset))
    }
}
