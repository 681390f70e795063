import FoundationEssentials
import Locking
import StateDeckHistory

/// The status page's 90 days of each panel, read from the history as little as they change: the
/// 89 days before today do not change once over, so they are read once a day; today is read again
/// when its reading is older than `todayLife`.
///
/// | read | query | rows read (default retention) |
/// | --- | --- | --- |
/// | the past days, once per UTC day | 91 daily slots up to today's midnight, the last 89 kept | 91 days' |
/// | today, at most once per `todayLife` | two daily slots up to now, the last kept | up to 48 hours' |
final class StatusDays: Sendable {
    private struct Panel {
        /// The UTC midnight (milliseconds since 1970) that `past` ends at.
        var today: Int64
        var past: [Tally]
        var current: Tally
        var readAt: Date
    }

    static let dayMs: Int64 = 86_400_000
    let history: any HistoryStore
    let todayLife: Duration
    private let panels = Locked<[String: Panel]>([:])

    init(history: any HistoryStore, todayLife: Duration = .seconds(60)) {
        self.history = history
        self.todayLife = todayLife
    }

    /// The UTC midnight that starts the 90 days ending with the day of `now`.
    static func firstDay(at now: Date) -> Date {
        Date(millisecondsSince1970: midnight(of: now) - Int64(StatusFacts.days - 1) * dayMs)
    }

    private static func midnight(of date: Date) -> Int64 {
        let milliseconds = date.millisecondsSince1970
        return milliseconds - ((milliseconds % dayMs) + dayMs) % dayMs
    }

    /// The 90 days of each of `ids`, oldest first, today last. Panels no longer asked for are forgotten.
    func days(of ids: [String], now: Date) throws(HistoryStoreError) -> [String: [Tally]] {
        let today = Self.midnight(of: now)
        let wanted = Set(ids)
        var known = panels.withLock { panels in panels.filter { wanted.contains($0.key) } }
        var days: [String: [Tally]] = [:]
        for id in ids {
            var panel: Panel
            if let cached = known[id], cached.today == today {
                panel = cached
                if now.timeIntervalSince(panel.readAt) >= Double(todayLife / .milliseconds(1)) / 1_000 {
                    panel.current = try currentDay(of: id)
                    panel.readAt = now
                }
            } else {
                panel = Panel(today: today, past: try pastDays(of: id, before: today), current: try currentDay(of: id),
                              readAt: now)
            }
            known[id] = panel
            days[id] = panel.past + [panel.current]
        }
        panels.withLock { $0 = known }
        return days
    }

    /// The 89 days before the midnight `today`.
    private func pastDays(of id: String, before today: Int64) throws(HistoryStoreError) -> [Tally] {
        let query = TimelineQuery(span: .seconds(91 * 86_400), slots: 91, to: Date(millisecondsSince1970: today))
        return try history.uptime(of: id, query).slots.suffix(StatusFacts.days - 1).map(\.tally)
    }

    /// Today so far, as the store counts it.
    private func currentDay(of id: String) throws(HistoryStoreError) -> Tally {
        try history.uptime(of: id, TimelineQuery(span: .seconds(2 * 86_400), slots: 2)).slots.last?.tally ?? Tally()
    }
}
