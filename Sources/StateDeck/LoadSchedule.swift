/// A deck's scheduled loads, by the time their alarm rings: the panels due at one time share one
/// alarm. On the alarm clock deadlines ring on a grid (``Deck/scheduleLeeway``), so at 2,000
/// refreshes a second about a hundred panels ring together, and their loads start from one task
/// and one turn of the deck's actor instead of one each.
///
/// Changed only on the deck's actor: a panel removed before its time rings does not load, even
/// when its alarm has rung and is on its way to the actor.
struct LoadSchedule {
    private struct Slot {
        var alarm: DeckClock.Alarm?
        /// Panels due, by index: whether their load is quiet.
        var panels: [Int: Bool] = [:]
    }

    private var slots: [Duration: Slot] = [:]
    /// Each scheduled panel's time.
    private var timeOfPanel: [Int: Duration] = [:]

    /// Schedules panel `index` at `time`, in place of its earlier time; true when nothing else
    /// rings then yet, so the caller must set the alarm (``setAlarm(_:at:)``).
    mutating func add(_ index: Int, at time: Duration, quietly: Bool) -> Bool {
        remove(index)
        timeOfPanel[index] = time
        let isNew = slots[time] == nil
        slots[time, default: Slot()].panels[index] = quietly
        return isNew
    }

    mutating func setAlarm(_ alarm: DeckClock.Alarm, at time: Duration) {
        slots[time]?.alarm = alarm
    }

    func contains(_ index: Int) -> Bool {
        timeOfPanel[index] != nil
    }

    /// Unschedules panel `index`; an alarm left with no panel is cancelled.
    mutating func remove(_ index: Int) {
        guard let time = timeOfPanel.removeValue(forKey: index) else { return }
        slots[time]?.panels[index] = nil
        if slots[time]?.panels.isEmpty == true {
            slots.removeValue(forKey: time)?.alarm?.cancel()
        }
    }

    /// The panels due at `time`, in declaration order, now unscheduled.
    mutating func take(_ time: Duration) -> [(index: Int, quietly: Bool)] {
        guard let slot = slots.removeValue(forKey: time) else { return [] }
        for index in slot.panels.keys { timeOfPanel[index] = nil }
        return slot.panels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Cancels every alarm: the deck stops or goes away.
    mutating func removeAll() {
        for slot in slots.values { slot.alarm?.cancel() }
        slots = [:]
        timeOfPanel = [:]
    }
}
