import FoundationEssentials
import StateDeck
@testable import StateDeckHistory
import Testing

/// Times are milliseconds after a whole day, so minutes, hours and days start at round numbers.
private let day0: Int64 = 20_000 * 86_400_000
private let tenDays: Int64 = 10 * 86_400_000

private func at(_ milliseconds: Int64) -> Date { Date(millisecondsSince1970: day0 + milliseconds) }

/// The clocks read with the wall at `wall` and `ran` milliseconds run since the store opened.
private func reading(wall: Int64, ran: Int64) -> HistoryClock.Reading {
    HistoryClock.Reading(wall: at(wall), running: .milliseconds(ran))
}

/// A state opened with both clocks at 0, `p` up from then on.
private func openedWithAPanelUp() -> HistoryState {
    var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                             opening: reading(wall: 0, ran: 0))
    state.absorb([panelChange(.loaded(Info()), health: .up, at: 0)], at: reading(wall: 0, ran: 0), unsavedLimit: 1_000)
    return state
}

private func panelChange(_ state: ViewState, health: Health, at milliseconds: Int64) -> PanelChange {
    PanelChange(panel: "p", at: at(milliseconds), state: state, cause: .load(.milliseconds(40)), health: health)
}

/// Each slot's time counted up, down, loading and under maintenance, in milliseconds.
private func counted(_ report: UptimeReport) -> [Int64] {
    report.slots.map { $0.tally.upMs + $0.tally.downMs + $0.tally.loadingMs + $0.tally.maintenanceMs }
}

/// `p`'s timeline of `slots` minutes up to `end`, from what the state holds (nothing saved).
private func minutes(_ state: HistoryState, _ slots: Int, to end: Int64) throws -> UptimeReport {
    state.uptime(of: "p", TimelineQuery(span: .seconds(60 * slots), slots: slots, to: at(end)), now: at(end)) { _, _ in [] }
}

/// The wall clock set forward or back, on virtual clocks: the wall and the time that ran given apart.
struct WallClockJumpTests {
    /// Set forward ten days for 5 s and back: retention's clock moved 6 s, so nothing is due
    /// before the hour of the time that ran ends; then it deletes at that time, not the wall's,
    /// unless the wall clock is behind it.
    @Test func retentionMovesOnByTheTimeThatRanNeverByAJump() throws {
        var state = openedWithAPanelUp()
        let first = state.batch(eventID: nil)
        #expect(first.expiry?.now == day0, "due at opening, at the wall clock read then")
        state.markSaved(first)
        for second: Int64 in 1...5 {
            state.absorb([], at: reading(wall: tenDays + second * 1_000, ran: second * 1_000), unsavedLimit: 1_000)
            #expect(state.batch(eventID: nil).expiry == nil, "ten days ahead by the wall, \(second) s by the time that ran")
        }
        state.absorb([], at: reading(wall: 6_000, ran: 6_000), unsavedLimit: 1_000)
        #expect(state.retentionNow == day0 + 6_000)
        #expect(state.watches.map { [$0.started - day0, $0.watchedTo - day0] }
            == [[0, 1_000], [tenDays + 1_000, tenDays + 6_000], [6_000, 6_000]], "each jump ended a watch")
        state.absorb([], at: reading(wall: 3_600_000 - 7_200_000, ran: 3_600_000), unsavedLimit: 1_000)
        #expect(state.retentionNow == day0 + 3_600_000, "set two hours back, it still moves on by the time that ran")
        #expect(state.batch(eventID: nil).expiry?.now == day0 - 3_600_000,
                "once in the next hour that ran, by the wall clock behind it")
    }

    /// Set back a minute, and an hour: the new watch counts nothing until the wall clock passes
    /// what the first counted, so no minute or hour, summed across watches, holds more than it spans.
    @Test func aJumpBackCountsNoInstantTwice() throws {
        var state = openedWithAPanelUp()
        state.absorb([], at: reading(wall: 90_000, ran: 90_000), unsavedLimit: 1_000)
        // Set back a minute 10 s later: the first watch counted up to 100 s.
        state.absorb([panelChange(.error(PanelError(.timeout)), health: .down, at: 40_000)],
                     at: reading(wall: 40_000, ran: 100_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 70_000, ran: 130_000), unsavedLimit: 1_000)
        let early = try minutes(state, 2, to: 70_000)
        #expect(early.slots.map(\.to) == [at(0), at(60_000)],
                "the minute holding now holds time after it, counted before the jump: it ends the timeline")
        #expect(counted(early) == [0, 60_000])
        state.absorb([], at: reading(wall: 120_000, ran: 180_000), unsavedLimit: 1_000)
        let minute = try minutes(state, 2, to: 120_000)
        #expect(minute.slots.map(\.tally.upMs) == [60_000, 40_000])
        #expect(minute.slots.map(\.tally.downMs) == [0, 20_000], "down from 40 s, counted from 100 s on")
        #expect(counted(minute) == [60_000, 60_000])
        #expect(minute.unwatched.isEmpty)

        // Two hours on, set back an hour: the second watch counted up to 7,380 s.
        state.absorb([], at: reading(wall: 7_320_000, ran: 7_380_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 3_780_000, ran: 7_440_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 7_440_000, ran: 11_100_000), unsavedLimit: 1_000)
        state.absorb([panelChange(.loaded(Info()), health: .up, at: 7_440_000)],
                     at: reading(wall: 7_440_000, ran: 11_100_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 7_500_000, ran: 11_160_000), unsavedLimit: 1_000)
        let hours = state.uptime(of: "p", TimelineQuery(span: .seconds(3 * 3_600), slots: 3, to: at(7_500_000)),
                                     now: at(7_500_000)) { _, _ in [] }
        #expect(hours.slots.map(\.tally.upMs) == [100_000, 0, 60_000])
        #expect(hours.slots.map(\.tally.downMs) == [3_500_000, 3_600_000, 240_000])
        #expect(counted(hours) == [3_600_000, 3_600_000, 300_000], "every slot at most its span: the last ends now")
        #expect(hours.day == 160.0 / 7_500.0)
        let lastMinutes = try minutes(state, 3, to: 7_500_000)
        #expect(counted(lastMinutes) == [60_000, 60_000, 60_000])
        #expect(lastMinutes.slots.map(\.tally.upMs) == [0, 0, 60_000])
    }

    /// A store opened after the clock went back (a stop, then the clock set back, then a start)
    /// credits nothing the watch an earlier process kept counted.
    @Test func aStartAfterTheClockWentBackCountsNothingAnEarlierProcessCounted() throws {
        let earlier = HistoryWatch(id: 7, started: day0, watchedTo: day0 + 90_000, talliedTo: day0 + 60_000)
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [earlier], lastPosition: 0,
                                 opening: reading(wall: 30_000, ran: 0))
        state.resume("p", shown: ShownState(), health: .up, since: day0, now: day0 + 30_000)
        state.absorb([], at: reading(wall: 120_000, ran: 90_000), unsavedLimit: 1_000)
        let counting = state.aggregator.watch
        let minutes = state.batch(eventID: nil).tallies.filter { $0.watch == counting && $0.resolution == .minute }
        #expect(minutes.map { [$0.start - day0, $0.tally.upMs] } == [[60_000, 30_000]], "up from 90 s, where the earlier watch ended")
    }

    /// The minute a jump happened in keeps what the watch before it counted, and the watch after
    /// adds only time no one counted.
    @Test func theOpenMinuteKeepsWhatItCountedAcrossAJump() throws {
        var state = openedWithAPanelUp()
        state.absorb([], at: reading(wall: 20_000, ran: 20_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: tenDays + 21_000, ran: 21_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: tenDays + 25_000, ran: 25_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 26_000, ran: 26_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 60_000, ran: 60_000), unsavedLimit: 1_000)
        let minute = try minutes(state, 1, to: 60_000)
        #expect(minute.slots.map(\.tally.upMs) == [21_000 + 34_000], "the first watch's 21 s, the third's from 26 s")
        #expect(minute.unwatched == [UptimeReport.Stretch(from: at(21_000), to: at(26_000))])
        let second = try #require(state.watches.dropFirst().first).id
        let ahead = state.batch(eventID: nil).tallies.filter { $0.watch == second && $0.resolution == .minute }
        #expect(ahead.map(\.start) == [day0 + tenDays])
        #expect(ahead.map(\.tally.upMs) == [5_000], "the 5 s counted ten days ahead are kept")
        let tenDaysOn = try minutes(state, 1, to: tenDays + 60_000)
        #expect(tenDaysOn.slots.map(\.tally.upMs) == [5_000 + 55_000], "the third watch counts the rest of that minute")
    }

    /// Set back two days to 50 min into an hour, 20 min counted, then back to half an hour before
    /// it: retention's now runs two days ahead, so the 24-hour timeline sums its slots from hours.
    /// The hour holding now holds the 10 min counted after it: it ends the timeline at its start,
    /// as its minute would, rather than fill a slot of 2 s with them; once the wall clock has
    /// passed them, the slots end at now again.
    @Test func aSlotSummedFromAnHourHoldingTimeCountedAfterNowEndsTheTimelineAtItsStart() throws {
        let hour: Int64 = -2 * 86_400_000
        var state = openedWithAPanelUp()
        state.absorb([], at: reading(wall: 60_000, ran: 60_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: hour + 3_000_000, ran: 61_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: hour + 4_200_000, ran: 1_261_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: hour - 1_800_000, ran: 1_261_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: hour + 2_000, ran: 3_063_000), unsavedLimit: 1_000)
        func day(to end: Int64) -> UptimeReport {
            state.uptime(of: "p", TimelineQuery(span: .seconds(86_400), slots: 24, to: at(end)), now: at(end)) { _, _ in [] }
        }
        let early = day(to: hour + 2_000)
        #expect(early.slots.last?.to == at(hour))
        #expect(counted(early).suffix(2) == [0, 1_800_000], "the half hour before it")
        state.absorb([], at: reading(wall: hour + 4_260_000, ran: 7_321_000), unsavedLimit: 1_000)
        let passed = day(to: hour + 4_260_000)
        #expect(passed.slots.last?.to == at(hour + 4_260_000))
        #expect(counted(passed).suffix(3) == [1_800_000, 3_600_000, 660_000],
                "the hour whole, then the 10 min counted before the jump back and the minute since")
    }

    /// A change stamped before a jump back and taken after it (the writer reads the clocks, then
    /// takes the queue) is the ending watch's: the new watch credits nothing between the jump and
    /// the change, which no one lived again, and counts the time lived after the jump in the
    /// health the change decided. A query's view of the queued change counts the same.
    @Test func aChangeQueuedBeforeAJumpBackIsCountedBeforeIt() throws {
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: reading(wall: 120_000, ran: 0))
        state.resume("p", shown: ShownState(), health: .up, since: day0, now: day0 + 120_000)
        let queued = [panelChange(.error(PanelError(.timeout)), health: .down, at: 120_000)]
        let view = state.view(of: "p", adding: queued, at: reading(wall: 54_000, ran: 0))
        state.absorb(queued, at: reading(wall: 54_000, ran: 0), unsavedLimit: 1_000)
        for counting in [view, state] {
            #expect(counted(try minutes(counting, 3, to: 54_000)) == [0, 0, 0], "nothing lived after the jump yet")
        }
        state.absorb([], at: reading(wall: 70_000, ran: 16_000), unsavedLimit: 1_000)
        let lived = try minutes(state, 2, to: 70_000)
        #expect(lived.slots.map(\.tally.downMs) == [6_000, 10_000], "down from the jump at 54 s")
        #expect(lived.slots.map(\.tally.upMs) == [0, 0])
    }

    /// A change stamped before a jump forward and taken after it counts its time up to the jump
    /// in the watch that ends; the jump's gap counts nowhere.
    @Test func aChangeQueuedBeforeAJumpForwardKeepsTheTimeBeforeIt() throws {
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: reading(wall: 0, ran: 0))
        state.absorb([panelChange(.loaded(Info()), health: .up, at: 0)], at: reading(wall: tenDays + 49_000, ran: 49_000),
                     unsavedLimit: 1_000)
        #expect(try minutes(state, 1, to: 60_000).slots.map(\.tally.upMs) == [49_000])
        state.absorb([], at: reading(wall: tenDays + 60_000, ran: 60_000), unsavedLimit: 1_000)
        #expect(try minutes(state, 1, to: tenDays + 60_000).slots.map(\.tally.upMs) == [11_000], "up on from the jump")
    }

    /// Set ten days ahead for 90 s and back, from the instant of a load: a change stamped in the
    /// excursion waits in the queue until the jump back (the writer reads the clocks, then takes
    /// the queue). It is the excursion's, so each hour and day holds the time lived in it once: the
    /// day left holds the hour before and the 10 min after, the excursion's day its 90 s and the load.
    @Test func anExcursionCountsEachHourAndDayOnce() throws {
        var state = openedWithAPanelUp()
        state.absorb([], at: reading(wall: 3_600_000, ran: 3_600_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: tenDays + 3_600_000, ran: 3_600_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: tenDays + 3_660_000, ran: 3_660_000), unsavedLimit: 1_000)
        state.absorb([panelChange(.loaded(Info()), health: .up, at: tenDays + 3_675_000)],
                     at: reading(wall: 3_690_000, ran: 3_690_000), unsavedLimit: 1_000)
        state.absorb([], at: reading(wall: 4_290_000, ran: 4_290_000), unsavedLimit: 1_000)
        func timeline(days: Int, to end: Int64) throws -> UptimeReport {
            state.uptime(of: "p", TimelineQuery(span: .seconds(86_400 * days), slots: days, to: at(end)),
                             now: at(4_290_000)) { _, _ in [] }
        }
        let hours = state.uptime(of: "p", TimelineQuery(span: .seconds(86_400), slots: 24), now: at(4_290_000)) { _, _ in [] }
        #expect(counted(hours).suffix(3) == [0, 3_600_000, 600_000], "the hour before, and 10 min of the next")
        #expect(hours.slots.map(\.tally.upMs).reduce(0, +) == 4_200_000)
        let days = try timeline(days: 100, to: 4_290_000)
        #expect(days.slotMs == 86_400_000, "day rows")
        #expect(counted(days).suffix(2) == [0, 4_200_000], "the day left holds only what was lived in it")
        #expect(days.slots.last?.tally.loads == 1, "the load at the start")
        let excursion = try timeline(days: 100, to: tenDays + 86_399_999)
        #expect(counted(excursion).suffix(1) == [90_000])
        #expect(excursion.slots.last?.tally.loads == 1, "the change stamped in the excursion is counted there")
    }
}
