import FoundationEssentials
import StateDeck
import StateDeckHistory

/// Reads what a user can read from the history store, as the routes read it, and says where it
/// differs from the model. A figure may miss at most ``slack`` of time at each end of what it
/// counts (the model counts time at the instants the deck's changes carry; the store at the
/// instants it reads its clocks).
struct Checker {
    let model: TruthModel
    let store: any HistoryStore
    /// The wall time of the check, in milliseconds since 1970.
    let now: Int64
    /// Counts the model's up time as down, to show that a wrong model is caught.
    let breaksModel: Bool

    static let slack: Int64 = 2_000

    /// The model's tally, broken on purpose when asked.
    private func expected(_ panel: Int, from: Int64, to: Int64) -> (up: Int64, down: Int64) {
        let tally = model.tally(of: panel, from: from, to: to)
        return breaksModel ? (0, tally.up + tally.down) : tally
    }

    /// Uptime over 24 hours, 7 and 30 days, and a timeline of each span, of every panel present;
    /// a timeline's slots each hold no more time than they span.
    func uptimes(of panels: [Int]) -> [String] {
        var found: [String] = []
        for panel in panels {
            for (span, slots) in [(Int64(86_400_000), 24), (7 * 86_400_000, 7), (30 * 86_400_000, 30)] {
                let report: UptimeReport
                do {
                    report = try store.uptime(of: "p\(panel)", TimelineQuery(span: .milliseconds(span), slots: slots))
                } catch {
                    found.append("p\(panel): uptime unreadable: \(error)")
                    continue
                }
                found += timeline(report, of: panel)
                found += ratio(report, of: panel, span: span)
            }
            found += current(of: panel)
        }
        return found
    }

    /// The timeline of `span` milliseconds in `slots` slots up to the past instant `to`, as a
    /// custom range of the page reads it, of every panel present: its slots, its 24-hour ratio
    /// and the health it says each panel had at `to`.
    func range(of panels: [Int], span: Int64, slots: Int, to: Int64) -> [String] {
        panels.flatMap { panel -> [String] in
            let report: UptimeReport
            do {
                report = try store.uptime(of: "p\(panel)", TimelineQuery(span: .milliseconds(span), slots: slots,
                                                                          to: Date(millisecondsSince1970: to)))
            } catch {
                return ["p\(panel): uptime up to \(Date(millisecondsSince1970: to)) unreadable: \(error)"]
            }
            var found = timeline(report, of: panel) + ratio(report, of: panel, span: 86_400_000, to: to)
            if let health = model.form(of: panel, at: to)?.health, health == .up || health == .down,
               report.current?.health != health {
                found.append("p\(panel): current health at \(Date(millisecondsSince1970: to)) \(report.current.map(\.health.name) ?? "null"); the model \(health.name)")
            }
            return found
        }
    }

    private func timeline(_ report: UptimeReport, of panel: Int) -> [String] {
        report.slots.compactMap { slot in
            let (from, to) = (slot.from.millisecondsSince1970, slot.to.millisecondsSince1970)
            let held = slot.tally.upMs + slot.tally.downMs + slot.tally.loadingMs + slot.tally.maintenanceMs
            if held > to - from {
                return "p\(panel): the slot \(slot.from)..<\(slot.to) holds \(held) ms, more than its \(to - from) ms"
            }
            let want = expected(panel, from: from, to: to)
            guard abs(slot.tally.upMs - want.up) > 2 * Self.slack || abs(slot.tally.downMs - want.down) > 2 * Self.slack
            else { return nil }
            return "p\(panel): the slot \(slot.from)..<\(slot.to) holds \(slot.tally.upMs) ms up and \(slot.tally.downMs) ms down; the model \(want.up) and \(want.down)"
        }
    }

    /// The ratio of a span counts the hours (or days) that start within it, up to now, or up to
    /// the start of the hour holding a past `to` (a bucket is never split).
    private func ratio(_ report: UptimeReport, of panel: Int, span: Int64, to: Int64? = nil) -> [String] {
        let (name, read): (String, Double?) = switch span {
        case 86_400_000: ("24h", report.day)
        case 7 * 86_400_000: ("7d", report.week)
        default: ("30d", report.month)
        }
        let hour: Int64 = 3_600_000
        let at = to ?? now
        let from = ((at - span) + hour - 1).floorDivided(by: hour) * hour
        // A bucket is never split: one that holds time counted after now (the clock went back)
        // ends the figure at its start.
        let atHour = at.floorDivided(by: hour) * hour
        let end = to != nil || model.counted(after: now, before: atHour + hour) ? atHour : now
        let want = expected(panel, from: from, to: end)
        let known = want.up + want.down
        guard known > 4 * Self.slack else { return [] }
        guard let read else { return ["p\(panel): \(name) uptime is null; the model counted \(known) ms up or down"] }
        let wanted = Double(want.up) / Double(known)
        let tolerance = Double(4 * Self.slack) / Double(known)
        guard abs(read - wanted) > tolerance else { return [] }
        return ["p\(panel): \(name) uptime \(read); the model \(wanted) (\(want.up) ms up of \(known))"]
    }

    /// The health now, since when, and since when it was watched without a break, as the uptime
    /// document's `current` says them.
    private func current(of panel: Int) -> [String] {
        let (health, since) = (model.panels[panel].health, model.panels[panel].since)
        guard health == .up || health == .down, let since else { return [] }
        let read = try? store.uptime(of: "p\(panel)", TimelineQuery(span: .seconds(3_600), slots: 1)).current
        guard let read, read.health == health else {
            return ["p\(panel): current health \(read.map(\.health.name) ?? "null"); the model \(health.name)"]
        }
        var found: [String] = []
        if read.since.millisecondsSince1970 != since {
            found.append("p\(panel): \(health.name) since \(read.since); the model since \(Date(millisecondsSince1970: since))")
        }
        let watchedSince = max(since, model.watchedSince(at: now))
        if abs(read.watchedSince.millisecondsSince1970 - watchedSince) > Self.slack {
            found.append("p\(panel): watched since \(read.watchedSince); the model since \(Date(millisecondsSince1970: watchedSince))")
        }
        return found
    }

    /// Each panel's health, phase and title in the moment rebuilt for `instant` (`GET /api/state?at=`).
    func moment(at instant: Int64, panels: [Int]) -> [String] {
        let moment: Moment
        do {
            moment = try store.moment(at: Date(millisecondsSince1970: instant))
        } catch .beforeOldest where panels.allSatisfy({ model.form(of: $0, at: instant) == nil }) {
            // No form of any panel is that old (the wall clock was set back past them all).
            return []
        } catch {
            return ["the moment at \(Date(millisecondsSince1970: instant)) is unreadable: \(error)"]
        }
        return panels.compactMap { panel in
            guard let form = model.form(of: panel, at: instant), let health = form.health, health == .up || health == .down
            else { return nil }
            let read = moment.forms[.panel("p\(panel)")]?.headline
            let want = "\(form.title): \(health.name), \(health == .up ? "loaded" : "error")"
            let shown = read.map { "\($0.title): \($0.health), \($0.phase)" } ?? "missing"
            guard shown != want else { return nil }
            return "p\(panel): \(shown) in the moment at \(Date(millisecondsSince1970: instant)); the model \(want)"
        }
    }

    /// The changes of health `GET /api/changes` lists in `from...to`, each panel's in the order
    /// and at the times the deck decided them.
    func changes(from: Int64, to: Int64, panels: [Int]) -> [String] {
        var listed: [DeckChange] = []
        var cursor: HistoryCursor?
        repeat {
            let page: DeckChangePage
            do {
                page = try store.deckChanges(HistoryQuery(from: Date(millisecondsSince1970: from),
                                                          to: Date(millisecondsSince1970: to), limit: 500, cursor: cursor),
                                             order: .oldestFirst)
            } catch {
                return ["the changes of \(Date(millisecondsSince1970: from))...\(Date(millisecondsSince1970: to)) are unreadable: \(error)"]
            }
            listed += page.changes
            cursor = page.next.flatMap(HistoryCursor.init)
        } while cursor != nil
        return panels.compactMap { panel in
            let read = listed.filter { $0.panel == "p\(panel)" && $0.from?.health != $0.to.health && ["up", "down"].contains($0.to.health) }
                .map { "\($0.to.health)@\($0.at.millisecondsSince1970)" }
            let want = model.changes(of: panel, from: from, to: to).filter { $0.health == .up || $0.health == .down }
                .map { "\($0.health.name)@\($0.at)" }
            guard read != want else { return nil }
            return "p\(panel): the changes of health listed for \(Date(millisecondsSince1970: from))...\(Date(millisecondsSince1970: to)) are \(read); the model \(want)"
        }
    }

    /// A removal of a panel from the deck file, or of one of its notify targets, as the
    /// notifications' check sees it.
    struct Removal {
        /// Its place among the world's events (``SimulatedWorld/nextEvent()``): from there its
        /// outage is over, told no more.
        var order: Int
        var panel: Int
        /// The target removed from the panel's `notify:`; nil when the panel was removed.
        var target: String? = nil
        /// Where a kill lost the removal, no commit having taken it: from there the outage stands
        /// again as the history last kept it, as it was at the removal.
        var lostOrder: Int?

        /// Whether it ends what `key` (``Checker/key(_:)``) was told.
        func covers(_ key: String) -> Bool {
            key.hasPrefix("p\(panel) ") && target.map { key.hasSuffix(" \($0)") } ?? true
        }
    }

    /// A stretch a maintenance window covered a panel, between two places among the world's
    /// events, from a wall time: nothing the deck decides for the panel then is sent.
    struct Quiet {
        var panel: Int
        var from: Int
        var to = Int.max
        var since: Int64
    }

    /// What a panel's notifications to one target are told apart by.
    static func key(_ notification: SimulatedTarget.Received) -> String {
        "\(notification.panel) \(notification.target)"
    }

    /// What the targets received: for each panel and target, no failure delivered twice without a
    /// recovery between, no recovery of an outage never told (a failure the receiver refused was
    /// told); the outage of a panel removed, or of a target removed from its `notify:`, is over,
    /// told no more (a recovery still owed included), unless a kill lost the removal. Nothing decided while a maintenance window
    /// covered the panel (`quiet`) arrives while it still does.
    ///
    /// A recovery telling the whole outage ("P1 was down for 5 min (Server error) and is up
    /// again", with its error) tells its failure too: it is what the outbox sends when the panel
    /// came back before its failure went out, whether the gathering window held the failure or a
    /// full disk did (a message waits for the ledger). A user then hears of the outage once, with
    /// what it was and how long it lasted, rather than "down" and "up" together minutes late, or
    /// nothing of an outage that happened.
    ///
    /// The one repeat allowed is the ledger's documented window, which a full disk widens: a
    /// message that arrived while the history could not write that it was done (`unkept`, the
    /// places from a disk filling to a kill that came before any commit) may arrive once more.
    ///
    /// A message decided at a window's first instant (a panel reloaded by an edit of the deck
    /// file, its recovery decided, and a window started, all at one time), or at a wall time a
    /// jump back passed over twice (`setBack`), may have been decided before the window began:
    /// it is not held against it.
    static func notifications(_ received: [SimulatedTarget.Received], removals: [Removal], unkept: [Range<Int>] = [],
                              quiet: [Quiet] = [], setBack: [ClosedRange<Int64>] = []) -> [String] {
        var found: [String] = []
        var told: Set<String> = []
        var delivered: Set<String> = []
        /// Each key's last message, when its end was lost with a kill: it may come again once.
        var mayRepeat: [String: DeckNotification.Event] = [:]
        // Each removal ending what it covers, and each lost removal's keys standing again as they were.
        let edits = (removals.map { (order: $0.order, removal: $0, ends: true) }
            + removals.compactMap { removal in removal.lostOrder.map { (order: $0, removal: removal, ends: false) } })
            .sorted { $0.order < $1.order }
        var pending = edits[...]
        var before: [Int: (told: Set<String>, delivered: Set<String>)] = [:]
        for notification in received {
            while let edit = pending.first, edit.order < notification.order {
                let removal = edit.removal
                if edit.ends {
                    before[removal.order] = (told.filter(removal.covers), delivered.filter(removal.covers))
                    told = told.filter { !removal.covers($0) }
                    delivered = delivered.filter { !removal.covers($0) }
                } else if let kept = before[removal.order] {
                    told = told.filter { !removal.covers($0) }.union(kept.told)
                    delivered = delivered.filter { !removal.covers($0) }.union(kept.delivered)
                }
                pending = pending.dropFirst()
            }
            let key = key(notification)
            if let window = quiet.first(where: { "p\($0.panel)" == notification.panel && ($0.from..<$0.to).contains(notification.order) }),
               notification.at > window.since, !setBack.contains(where: { $0.contains(notification.at) }) {
                found.append("\(key): a \(notification.event.rawValue) decided at \(notification.at) arrived at \(notification.arrived) under a maintenance window begun at \(window.since)")
            }
            let repeats = mayRepeat.removeValue(forKey: key) == notification.event
            if unkept.contains(where: { $0.contains(notification.answered) }) { mayRepeat[key] = notification.event }
            switch notification.event {
            case .failure:
                told.insert(key)
                if notification.delivered, !delivered.insert(key).inserted, !repeats {
                    found.append("\(key): a second failure delivered at \(notification.arrived) before any recovery")
                }
            case .recovery:
                if told.remove(key) == nil, !notification.toldWholeOutage, !repeats {
                    found.append("\(key): a recovery told at \(notification.arrived) of an outage never told or already over")
                }
                delivered.remove(key)
            default:
                continue
            }
        }
        return found
    }
}

extension Int64 {
    /// The quotient rounded toward minus infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
