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

    /// The ratio of a span counts the hours (or days) that start within it, up to now.
    private func ratio(_ report: UptimeReport, of panel: Int, span: Int64) -> [String] {
        let (name, read): (String, Double?) = switch span {
        case 86_400_000: ("24h", report.day)
        case 7 * 86_400_000: ("7d", report.week)
        default: ("30d", report.month)
        }
        let hour: Int64 = 3_600_000
        let from = ((now - span) + hour - 1).floorDivided(by: hour) * hour
        // A bucket is never split: one that holds time counted after now (the clock went back)
        // ends the figure at its start.
        let currentHour = now.floorDivided(by: hour) * hour
        let end = model.counted(after: now, before: currentHour + hour) ? currentHour : now
        let want = expected(panel, from: from, to: end)
        let known = want.up + want.down
        guard known > 4 * Self.slack else { return [] }
        guard let read else { return ["p\(panel): \(name) uptime is null; the model counted \(known) ms up or down"] }
        let wanted = Double(want.up) / Double(known)
        let tolerance = Double(4 * Self.slack) / Double(known)
        guard abs(read - wanted) > tolerance else { return [] }
        return ["p\(panel): \(name) uptime \(read); the model \(wanted) (\(want.up) ms up of \(known))"]
    }

    /// The health now, as the uptime document's `current` says it.
    private func current(of panel: Int) -> [String] {
        let health = model.panels[panel].health
        guard health == .up || health == .down else { return [] }
        let read = try? store.uptime(of: "p\(panel)", TimelineQuery(span: .seconds(3_600), slots: 1)).current?.health
        guard read != health else { return [] }
        return ["p\(panel): current health \(read.map(\.name) ?? "null"); the model \(health.name)"]
    }

    /// Each panel's health in the moment rebuilt for `instant` (`GET /api/state?at=`).
    func moment(at instant: Int64, panels: [Int]) -> [String] {
        let moment: Moment
        do {
            moment = try store.moment(at: Date(millisecondsSince1970: instant))
        } catch .beforeOldest where panels.allSatisfy({ model.health(of: $0, at: instant) == nil }) {
            // No form of any panel is that old (the wall clock was set back past them all).
            return []
        } catch {
            return ["the moment at \(Date(millisecondsSince1970: instant)) is unreadable: \(error)"]
        }
        return panels.compactMap { panel in
            guard let health = model.health(of: panel, at: instant), health == .up || health == .down else { return nil }
            let read = moment.forms[.panel("p\(panel)")]?.headline?.health
            guard read != health.name else { return nil }
            return "p\(panel): health \(read ?? "missing") in the moment at \(Date(millisecondsSince1970: instant)); the model \(health.name)"
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
                .map { "\($0.health?.name ?? "gone")@\($0.at)" }
            guard read != want else { return nil }
            return "p\(panel): the changes of health listed for \(Date(millisecondsSince1970: from))...\(Date(millisecondsSince1970: to)) are \(read); the model \(want)"
        }
    }

    /// A removal of a panel from the deck file, as the notifications' check sees it.
    struct Removal {
        /// Its place among the world's events (``SimulatedWorld/nextEvent()``): from there its
        /// outage is over, told no more.
        var order: Int
        var panel: Int
        /// Where a kill lost the removal, no commit having taken it: from there the outage stands
        /// again as the history last kept it, as it was at the removal.
        var lostOrder: Int?
    }

    /// What the target received: for each panel, no failure delivered twice without a recovery
    /// between, no recovery of an outage never told (a failure the receiver refused was told);
    /// an outage ended by removing its panel is over, told no more, unless a kill lost the removal.
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
    static func notifications(_ received: [SimulatedTarget.Received], removals: [Removal], unkept: [Range<Int>] = [])
        -> [String] {
        var found: [String] = []
        var told: Set<String> = []
        var delivered: Set<String> = []
        /// Each panel's last message, when its end was lost with a kill: it may come again once.
        var mayRepeat: [String: DeckNotification.Event] = [:]
        // Each removal's panel ended, and each lost removal's panel standing again as it was.
        let edits = (removals.map { (order: $0.order, removal: $0, ends: true) }
            + removals.compactMap { removal in removal.lostOrder.map { (order: $0, removal: removal, ends: false) } })
            .sorted { $0.order < $1.order }
        var pending = edits[...]
        var before: [Int: (told: Bool, delivered: Bool)] = [:]
        for notification in received {
            while let edit = pending.first, edit.order < notification.order {
                let panel = "p\(edit.removal.panel)"
                if edit.ends {
                    before[edit.removal.order] = (told.remove(panel) != nil, delivered.remove(panel) != nil)
                } else if let kept = before[edit.removal.order] {
                    if kept.told { told.insert(panel) } else { told.remove(panel) }
                    if kept.delivered { delivered.insert(panel) } else { delivered.remove(panel) }
                }
                pending = pending.dropFirst()
            }
            let panel = notification.panel
            let repeats = mayRepeat.removeValue(forKey: panel) == notification.event
            if unkept.contains(where: { $0.contains(notification.answered) }) { mayRepeat[panel] = notification.event }
            switch notification.event {
            case .failure:
                told.insert(panel)
                if notification.delivered, !delivered.insert(panel).inserted, !repeats {
                    found.append("\(panel): a second failure delivered at \(notification.arrived) before any recovery")
                }
            case .recovery:
                if told.remove(panel) == nil, !notification.toldWholeOutage, !repeats {
                    found.append("\(panel): a recovery told at \(notification.arrived) of an outage never told or already over")
                }
                delivered.remove(panel)
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
