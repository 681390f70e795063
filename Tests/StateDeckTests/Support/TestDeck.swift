import Clocks
import Foundation
import Testing
import TestSupport
@testable import StateDeck

/// A deck on a test clock, with every event recorded and wall time derived from the clock.
/// Suites that make one carry `.stopsDecks`, which stops it when the test ends.
struct TestDeck {
    /// 2026-11-22T10:00:00Z, the wall time when the clock reads zero.
    static let origin = Date(timeIntervalSince1970: 1_795_341_600)

    let clock: TestClock<Duration>
    let deck: Deck
    let events = Recorder<DeckEvent>()

    /// - Parameter clock: the deck's clock, when a loader needs it too.
    init(
        clock: TestClock<Duration> = TestClock(),
        random: Double = 0.5,
        maximumInfoSize: Int = 1 << 20,
        maintenance: [MaintenanceWindow] = [],
        flapping: FlappingRule? = FlappingRule(),
        memories: [String: PanelMemory] = [:],
        @DeckBuilder panels: () -> [Panel]
    ) async {
        self.clock = clock
        var configuration = Deck.Configuration(
            clock: clock,
            now: { Self.date(at: TestClock<Duration>.Instant().duration(to: clock.now)) },
            random: { random }
        )
        configuration.maximumInfoSize = maximumInfoSize
        configuration.flapping = flapping
        deck = Deck("Test deck", configuration: configuration, panels: panels(), memories: memories, maintenance: maintenance)
        await deck.observe { [events] in events.append($0) }
        StopsDecks.made?.withLock { [deck] in $0.append(StopsDecks.WeakDeck(deck: deck)) }
    }

    /// The wall time `offset` after the clock's zero.
    static func date(at offset: Duration) -> Date {
        origin.addingTimeInterval(offset / .seconds(1))
    }

    /// Advances the clock to `offset` after its zero.
    func advance(to offset: Duration) async {
        await clock.advance(to: TestClock<Duration>.Instant(offset: offset))
    }

    /// Advances the clock to `offset` and waits until the load of panel `id` due then has ended.
    ///
    /// Waiting on the published state is not enough: a scheduled load that finds the result
    /// shown publishes nothing new, so the clock could move on before it ran and push the next
    /// load a whole interval later. Every load that ends tells its change, shown or not.
    func advanceThroughLoad(to offset: Duration, _ id: String = "p", sourceLocation: SourceLocation = #_sourceLocation) async {
        let ended = loadsEnded(id)
        await advance(to: offset)
        await eventually(sourceLocation: sourceLocation) { loadsEnded(id) > ended ? true : nil }
    }

    /// How many loads of panel `id` have ended, each with its change.
    func loadsEnded(_ id: String = "p") -> Int {
        events.all.count { if case .change(let change) = $0, change.panel == id, case .load = change.cause { true } else { false } }
    }

    /// The published states of panel `id`, oldest first.
    func states(_ id: String = "p") -> [PanelState] {
        events.all.compactMap { if case .panel(let state) = $0, state.id == id { state } else { nil } }
    }

    var toasts: [Toast] {
        events.all.compactMap { if case .toast(let toast) = $0 { toast } else { nil } }
    }

    /// Waits until panel `id`'s published state satisfies `condition`, and returns it.
    @discardableResult
    func until(
        _ id: String = "p",
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (PanelState) -> Bool
    ) async -> PanelState? {
        await eventually(sourceLocation: sourceLocation) { states(id).last.flatMap { condition($0) ? $0 : nil } }
    }

    /// Waits until `count` toasts were shown, and returns the newest.
    @discardableResult
    func untilToasts(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> Toast? {
        await eventually(sourceLocation: sourceLocation) { toasts.count >= count ? toasts.last : nil }
    }

    /// Polls `value` until it is non-nil; records an issue after `defaultWait` of real time.
    ///
    /// Polling advances the clock by zero: that lets the deck's tasks run and wakes a sleep that
    /// began at the current instant after the clock got there, without moving time.
    @discardableResult
    func eventually<Value>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ value: () async -> Value?
    ) async -> Value? {
        let deadline = ContinuousClock.now + defaultWait
        while ContinuousClock.now < deadline {
            if let value = await value() { return value }
            await clock.advance(by: .zero)
        }
        Issue.record("Timed out waiting for a condition", sourceLocation: sourceLocation)
        return nil
    }

    /// Lets the deck's tasks run without moving time, for checks that something did not happen.
    func settle() async {
        for _ in 0..<50 { await clock.advance(by: .zero) }
    }
}
