import FoundationEssentials
import StateDeck
@testable import StateDeckHistory
import Testing

/// Times are milliseconds after a whole day, so minutes, hours and days start at round numbers.
private let day0: Int64 = 20_000 * 86_400_000

private func at(_ milliseconds: Int64) -> Date { Date(millisecondsSince1970: day0 + milliseconds) }

/// Each bucket's newest row, oldest bucket first: an hour or a day is handed out at every minute's end.
private func newestOfEachBucket(_ rows: [TallyRow]) -> [TallyRow] {
    var newest: [String: TallyRow] = [:]
    for row in rows { newest["\(row.resolution) \(row.start)"] = row }
    return newest.values.sorted { ($0.resolution.rawValue, $0.start) < ($1.resolution.rawValue, $1.start) }
}

/// A change with the health the deck would decide for a panel with no result before, unless told.
private func change(_ state: ViewState, _ milliseconds: Int64, cause: PanelChange.Cause = .load(.milliseconds(40)),
                    health: Health? = nil, recorded: Bool = true) -> PanelChange {
    PanelChange(panel: "p", at: at(milliseconds), state: state, cause: cause,
                health: health ?? Health.unknown.after(state, cause: cause), recorded: recorded)
}

private extension PanelChange {
    func marked(_ mark: MaintenanceMark) -> PanelChange {
        var change = self
        change.maintenance = mark
        return change
    }
}

struct HealthAggregatorTests {
    @Test func timeIsCountedInTheHealthItHadAndSplitAtMinuteEdges() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loading, 0, cause: .view))
        aggregator.apply(change(.loaded(Info(summary: "ok")), 500))
        aggregator.apply(change(.error(PanelError(.timeout)), 90_000))
        aggregator.advance(to: at(120_000))
        let minutes = aggregator.takeClosedRows().filter { $0.resolution == .minute }
        #expect(minutes.map(\.start) == [day0, day0 + 60_000])
        let first = try #require(minutes.first?.tally)
        #expect(first.loadingMs == 500)
        #expect(first.upMs == 59_500)
        #expect(first.loads == 1 && first.failures == 0)
        let second = try #require(minutes.last?.tally)
        #expect(second.upMs == 30_000 && second.downMs == 30_000)
        #expect(second.loads == 1 && second.failures == 1)
        #expect(aggregator.tracks["p"]?.health == .down)
        #expect(aggregator.tracks["p"]?.since == day0 + 90_000)
    }

    @Test func aRemovedPanelsBucketsAreHandedOutCountNothingAndAreDroppedWhenItsDayEnds() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loaded(Info()), 10_000))
        aggregator.advance(to: at(30_000))
        aggregator.end("p")
        #expect(newestOfEachBucket(aggregator.takeClosedRows()).map(\.tally.upMs) == [20_000, 20_000, 20_000],
                "its minute, hour and day as they stood")
        #expect(aggregator.tracks["p"]?.health == .unknown)
        aggregator.advance(to: at(3_600_000))
        #expect(newestOfEachBucket(aggregator.takeClosedRows()).map(\.tally.upMs) == [20_000, 20_000, 20_000],
                "nothing counted since")
        #expect(aggregator.tracks["p"] != nil, "its day is open: added back, it counts on in it")
        aggregator.advance(to: at(86_400_000))
        #expect(aggregator.tracks["p"] == nil, "its day ended")
    }

    @Test func forcedTimeCountsNowhereAndDoesNotChangeHealth() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loaded(Info()), 0))
        aggregator.apply(change(.error(PanelError(.unknown)), 10_000, cause: .debug))
        aggregator.apply(change(.loading, 40_000, cause: .view, health: .up))
        aggregator.advance(to: at(60_000))
        let minute = try #require(aggregator.takeClosedRows().first { $0.resolution == .minute }?.tally)
        #expect(minute.upMs == 30_000, "10 s before the forced error and 20 s after the release")
        #expect(minute.downMs == 0)
        #expect(minute.failures == 0)
        #expect(aggregator.tracks["p"]?.health == .up)
    }

    @Test func aWindowOpeningMidOutageCountsMaintenanceInsteadOfDownUntilItEnds() throws {
        let mark = MaintenanceMark(id: "w", reason: "Upgrade", until: at(40_000))
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.error(PanelError(.timeout)), 0))
        aggregator.apply(change(.error(PanelError(.timeout)), 15_000, cause: .mark, health: .down, recorded: false)
            .marked(mark))
        aggregator.apply(change(.error(PanelError(.timeout)), 25_000, health: .down, recorded: false).marked(mark))
        aggregator.apply(change(.error(PanelError(.timeout)), 40_000, cause: .mark, health: .down, recorded: false))
        aggregator.advance(to: at(60_000))
        let minute = try #require(aggregator.takeClosedRows().first { $0.resolution == .minute }?.tally)
        #expect(minute.downMs == 35_000, "15 s before the window, 20 s after it")
        #expect(minute.maintenanceMs == 25_000)
        #expect(minute.loads == 2 && minute.failures == 2, "the loads go on counting; the marks are none")
        #expect(minute.upRatio == 0)
        #expect(aggregator.tracks["p"]?.since == day0, "down all along")
    }

    @Test func aMarkCountsNoLoadAndEndsNoHold() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loaded(Info()), 0))
        aggregator.apply(change(.error(PanelError(.unknown)), 10_000, cause: .debug))
        aggregator.apply(change(.loaded(Info()), 20_000, cause: .mark, health: .up, recorded: false))
        aggregator.advance(to: at(60_000))
        let minute = try #require(aggregator.takeClosedRows().first { $0.resolution == .minute }?.tally)
        #expect(minute.loads == 1, "the first load only")
        #expect(minute.upMs == 10_000, "held from 10 s on, the mark between")
        #expect(aggregator.tracks["p"]?.forced == true)
    }

    @Test func quietLoadsCountTheirDurationWithoutChangingAnything() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loaded(Info()), 0, cause: .load(.milliseconds(10))))
        for second in 1...4 {
            aggregator.apply(change(.loaded(Info()), Int64(second) * 10_000, cause: .load(.milliseconds(Int64(second) * 100)),
                                    recorded: false))
        }
        aggregator.advance(to: at(60_000))
        let minute = try #require(aggregator.takeClosedRows().first { $0.resolution == .minute }?.tally)
        #expect(minute.loads == 5)
        #expect(minute.minMs == 10 && minute.maxMs == 400)
        #expect(minute.averageMs == 202)
        #expect(minute.p95Ms == 400)
        #expect(aggregator.tracks["p"]?.since == day0)
    }

    @Test func minutesRollIntoTheirHourAndDay() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.loaded(Info()), 0))
        aggregator.apply(change(.error(PanelError(.timeout)), 45 * 60_000))
        aggregator.advance(to: at(86_400_000))
        let handedOut = aggregator.takeClosedRows()
        #expect(handedOut.filter { $0.resolution == .hour && $0.start == day0 }.map(\.tally.upMs).prefix(2) == [60_000, 120_000],
                "an open hour is handed out at each minute's end, as it stands")
        let rows = newestOfEachBucket(handedOut)
        #expect(rows.filter { $0.resolution == .minute }.count == 1_440)
        let hours = rows.filter { $0.resolution == .hour }
        #expect(hours.count == 24)
        #expect(hours.first?.tally.upMs == 45 * 60_000 && hours.first?.tally.downMs == 15 * 60_000)
        let days = rows.filter { $0.resolution == .day }
        let day = try #require(days.first?.tally)
        #expect(days.count == 1)
        #expect(day.upMs == 45 * 60_000)
        #expect(day.downMs == 86_400_000 - 45 * 60_000)
        #expect(day.loads == 2 && day.failures == 1)
    }

    @Test func unsavedRowsHoldTheOpenBucketUpToNow() throws {
        var aggregator = HealthAggregator(watch: 1)
        aggregator.apply(change(.error(PanelError(.timeout)), 0))
        let open = aggregator.unsavedRows(of: "p", .hour, at: at(90_000))
        #expect(open.count == 1)
        #expect(open.first?.tally.downMs == 90_000)
        #expect(aggregator.takeClosedRows().isEmpty, "reading hands nothing out")
    }
}

struct HistoryStateTests {
    /// A window is kept by the thread that started it, while the writer's commit may be under way.
    @Test func aWindowKeptDuringACommitWaitsForTheNext() {
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: HistoryClock.Reading(wall: at(0)))
        let window = { (id: String) in
            MaintenanceSpan(id: id, reason: "upgrade", panels: ["p"], from: at(0), until: at(3_600_000), source: .api)
        }
        state.keep([window("api-1")])
        let committing = state.batch(eventID: nil)
        state.keep([window("api-2")])
        state.markSaved(committing)
        #expect(state.batch(eventID: nil).maintenance.map(\.id) == ["api-2"])
    }

    /// Past the limit (saving has failed for long), minutes are dropped before hours and hours
    /// before days, the oldest first within each: the 90-day and 2-year views keep what the
    /// 24-hour view loses first.
    @Test func pastTheLimitMinutesGoBeforeHoursAndHoursBeforeDays() {
        let limit = 30
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: HistoryClock.Reading(wall: at(0)))
        state.absorb([change(.loaded(Info()), 0)], at: HistoryClock.Reading(wall: at(0)), unsavedLimit: limit)
        // A day and two minutes, none saved: 1,442 minutes ended, with 25 hours and 2 days as they stood then.
        state.absorb([], at: HistoryClock.Reading(wall: at(86_400_000 + 120_000)), unsavedLimit: limit)
        let ended = state.batch(eventID: nil).tallies.filter { $0.countedTo == nil }
        func starts(_ resolution: Resolution) -> [Int64] {
            ended.filter { $0.resolution == resolution }.map { $0.start - day0 }.sorted()
        }
        #expect(ended.count == limit)
        #expect(starts(.day) == [0, 86_400_000])
        #expect(starts(.hour) == (0..<25).map { Int64($0) * 3_600_000 })
        #expect(starts(.minute) == [1_439, 1_440, 1_441].map { Int64($0) * 60_000 }, "the newest three")
    }

    /// A deck of more panels than the limit: a minute's end hands out a row of each resolution for
    /// every panel, all of which the next save takes; only what waits beyond that is dropped.
    @Test func aMinutesEndOfEveryPanelIsKeptWhateverTheLimit() {
        let (limit, panels) = (5, (0..<10).map { "p\($0)" })
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: HistoryClock.Reading(wall: at(0)))
        let results = panels.map { panel in
            var result = change(.loaded(Info()), 30_000)
            result.panel = panel
            return result
        }
        state.absorb(results, at: HistoryClock.Reading(wall: at(30_000)), unsavedLimit: limit)
        state.absorb([], at: HistoryClock.Reading(wall: at(60_000)), unsavedLimit: limit)
        let ended = state.batch(eventID: nil).tallies.filter { $0.countedTo == nil }
        #expect(ended.count == 3 * panels.count, "each panel's minute, hour and day")
        #expect(Set(ended.filter { $0.resolution == .minute }.map(\.panel)) == Set(panels))
        #expect(ended.filter { $0.resolution == .minute }.allSatisfy { $0.tally.loads == 1 && $0.tally.upMs == 30_000 })
        // Not saved for another minute: each panel's older minute is what goes.
        state.absorb([], at: HistoryClock.Reading(wall: at(120_000)), unsavedLimit: limit)
        let waiting = state.batch(eventID: nil).tallies.filter { $0.countedTo == nil && $0.resolution == .minute }
        #expect(waiting.count == panels.count)
        #expect(waiting.allSatisfy { $0.start == day0 + 60_000 }, "the newest minute of each")
    }
}

extension HistoryStateTests {
    /// A process that stops writing (it lost the lead) holds what it counted and counts nothing
    /// more: later its view still says the health it had and since when, and no time after.
    @Test func aStateThatStopsCountingCountsNothingMore() {
        var state = HistoryState(retention: HistoryRetention(), storedEventID: 0, watches: [], lastPosition: 0,
                                 opening: HistoryClock.Reading(wall: at(0)))
        state.absorb([change(.loaded(Info()), 0)], at: HistoryClock.Reading(wall: at(0)), unsavedLimit: 100)
        state.absorb([], at: HistoryClock.Reading(wall: at(60_000)), unsavedLimit: 100)
        state.stopCounting()
        let view = state.view(of: "p", adding: [], at: HistoryClock.Reading(wall: at(600_000)))
        let report = view.uptime(of: "p", TimelineQuery(span: .seconds(3_600), slots: 1), now: at(600_000)) { _, _ in [] }
        #expect(report.current?.health == .up)
        #expect(report.current?.since == at(0))
        #expect(report.slots.map(\.tally.upMs).reduce(0, +) == 60_000, "the minute it counted, not the nine since")
    }
}

struct DurationHistogramTests {
    @Test func encodingRoundTripsAndQuantilesStayWithinABucket() throws {
        var histogram = DurationHistogram()
        for milliseconds in 1...100 as ClosedRange<Int64> { histogram.add(milliseconds: milliseconds) }
        let decoded = try #require(DurationHistogram(encoded: histogram.encoded))
        #expect(decoded == histogram)
        let p95 = try #require(histogram.quantile(0.95))
        #expect((95...114).contains(p95), "within one bucket (19 %) above the true 95")
        #expect(DurationHistogram(encoded: [200, 1]) == nil, "a bucket past the last")
        #expect(DurationHistogram(encoded: [3, 0x80]) == nil, "a count cut short")
    }
}
