import FoundationEssentials
import Locking
import StateDeckHistory

/// The status page's 90 days of each panel, kept so that a render does not wait for the history:
/// each panel's days are read once (one query of the day buckets, today's open one included; the
/// server reads them in the background at start), then again off any request at most once per
/// `life`, since today's changes.
///
/// One query of 91 daily slots per panel, rather than the 89 past days kept and today read alone:
/// today alone is finer buckets (a two-day query reads hours), which cost four times the 91 day
/// rows in the status benchmark.
final class StatusDays: Sendable {
    private struct Kept {
        var days: [String: [Tally]] = [:]
        var readAt: ContinuousClock.Instant?
        var refreshing = false
    }

    static let dayMs: Int64 = 86_400_000
    let history: any HistoryStore
    let life: Duration
    private let kept = Locked(Kept())

    init(history: any HistoryStore, life: Duration = .seconds(60)) {
        self.history = history
        self.life = life
    }

    /// The UTC midnight that starts the 90 days ending with the day of `now`.
    static func firstDay(at now: Date) -> Date {
        let milliseconds = now.millisecondsSince1970
        let midnight = milliseconds - ((milliseconds % dayMs) + dayMs) % dayMs
        return Date(millisecondsSince1970: midnight - Int64(StatusFacts.days - 1) * dayMs)
    }

    /// The 90 days of each of `ids`, oldest first, today last: as kept, read now for the panels not
    /// kept yet. When what is kept is older than `life`, all of it is read again in the background.
    func days(of ids: [String]) throws(HistoryStoreError) -> [String: [Tally]] {
        let now = ContinuousClock.now
        let (known, stale) = kept.withLock { kept -> ([String: [Tally]], Bool) in
            let stale = !kept.refreshing && kept.readAt.map { now - $0 >= life } == true
            if stale { kept.refreshing = true }
            return (kept.days, stale)
        }
        var days: [String: [Tally]] = [:]
        var read: [String: [Tally]] = [:]
        for id in ids {
            if let panel = known[id] {
                days[id] = panel
            } else {
                read[id] = try self.read(id)
                days[id] = read[id]
            }
        }
        kept.withLock { kept in
            kept.days.merge(read) { _, new in new }
            if kept.readAt == nil { kept.readAt = now }
        }
        if stale { Task.detached { [self] in refresh(ids) } }
        return days
    }

    /// Reads the days of `ids` ahead of the first render (at start), kept as already due to be read
    /// again: the first render takes them at once and has them read again in the background, since
    /// the panels' first results came after.
    func prepare(_ ids: [String]) {
        refresh(ids, due: true)
    }

    /// Reads the days of `ids` again, in place of those kept (panels no longer asked for are dropped).
    private func refresh(_ ids: [String], due: Bool = false) {
        var read: [String: [Tally]] = [:]
        for id in ids {
            read[id] = try? self.read(id)
        }
        kept.withLock { kept in
            kept.days = read
            kept.readAt = due ? .now.advanced(by: .zero - life) : .now
            kept.refreshing = false
        }
    }

    /// The 90 days up to now of panel `id`: their times only (up, down, loading, maintenance), which
    /// are all the page reads and add up without the loads' durations.
    private func read(_ id: String) throws(HistoryStoreError) -> [Tally] {
        let query = TimelineQuery(span: .seconds(91 * 86_400), slots: 91)
        return try history.uptime(of: id, query).slots.suffix(StatusFacts.days).map { slot in
            var times = Tally()
            times.upMs = slot.tally.upMs
            times.downMs = slot.tally.downMs
            times.loadingMs = slot.tally.loadingMs
            times.maintenanceMs = slot.tally.maintenanceMs
            return times
        }
    }
}
