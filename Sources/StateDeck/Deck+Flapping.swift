import FoundationEssentials

extension Deck {
    /// Counts panel `index`'s change of health from `old` to `new` at `date` (``FlappingRule``'s
    /// table), and while the panel flaps moves the alarm that ends its flapping to `within` after
    /// this change.
    func countFlap(_ index: Int, from old: Health, to new: Health, at date: Date) {
        guard let rule = configuration.flapping, old != new, old.isSettled, new.isSettled else { return }
        panels[index].flaps.count(date, rule: rule)
        watchFlapping(index)
    }

    /// Sets flapping panel `index`'s alarm at the time it has been steady for the rule's window.
    func watchFlapping(_ index: Int) {
        panels[index].flaps.cancelAlarm()
        guard let rule = configuration.flapping, panels[index].flaps.since != nil, !isStopped,
              let newest = panels[index].flaps.changes.last else { return }
        let calmAt = newest.addingTimeInterval(rule.within / .seconds(1))
        let deadline = clock.now + .seconds(max(0, calmAt.timeIntervalSince(configuration.now())))
        panels[index].flaps.alarm = clock.alarm(at: deadline) { [weak self] in await self?.flappingCalmed(index, newest) }
    }

    /// The flapping count of each panel that counted a change within the window, by panel id:
    /// what a cluster's replica keeps for the next leader, from the deck's start on.
    public func flapRecords() -> [String: FlapRecord] {
        var records: [String: FlapRecord] = [:]
        for runtime in panels where !runtime.flaps.changes.isEmpty {
            records[runtime.panel.id] = runtime.flaps.record
        }
        return records
    }

    /// Arms the alarms of panels that were flapping in the deck this one replaces, or in the run a
    /// history store continues; with flapping turned off since, they forget it.
    func startFlapWatches() {
        for index in panels.indices where panels[index].flaps.since != nil {
            if configuration.flapping == nil { panels[index].flaps = FlapWatch() } else { watchFlapping(index) }
        }
    }

    /// Panel `index`'s alarm for the change at `newest` rang: unless another change came since,
    /// flapping ends, told as a mark of the state the panel is in. A wall clock set back since
    /// the alarm was set waits again.
    private func flappingCalmed(_ index: Int, _ newest: Date) {
        guard let rule = configuration.flapping, panels[index].flaps.changes.last == newest else { return }
        panels[index].flaps.alarm = nil
        let date = configuration.now()
        guard date >= newest.addingTimeInterval(rule.within / .seconds(1)) else { return watchFlapping(index) }
        panels[index].flaps = FlapWatch()
        emitChange(panels[index].history.current, on: index, at: date, cause: .mark, recorded: false)
        publish(index)
    }
}

/// A panel's changes of health between up and down within the flapping rule's window, whether it
/// flaps, and the alarm that ends flapping. Kept across a deck file's reload (``PanelMemory``),
/// and across a server restart, a crash or a failover through its ``FlapRecord``, which every
/// change carries to the history store and a cluster's replica.
struct FlapWatch {
    /// When the health changed, oldest first: those within the window of the newest.
    var changes: [Date] = []
    /// When flapping began; nil while the panel is not flapping.
    var since: Date?
    var alarm: DeckClock.Alarm?

    init(changes: [Date] = [], since: Date? = nil) {
        self.changes = changes
        self.since = since
    }

    init(_ record: FlapRecord) {
        self.init(changes: record.changes, since: record.since)
    }

    /// What a history store keeps of it.
    var record: FlapRecord { FlapRecord(changes: changes, since: since) }

    /// Counts a change at `date`, forgets those the window left behind, and begins flapping when
    /// more than the rule allows remain.
    mutating func count(_ date: Date, rule: FlappingRule) {
        let windowStart = date.addingTimeInterval(-(rule.within / .seconds(1)))
        changes.removeFirst(changes.prefix { $0 <= windowStart }.count)
        changes.append(date)
        if since == nil, changes.count > rule.changes { since = date }
    }

    /// What the state says while the panel flaps.
    func status(_ rule: FlappingRule) -> FlappingStatus? {
        since.map { FlappingStatus(since: $0, changes: changes.count, within: rule.within.lengthText) }
    }

    mutating func cancelAlarm() {
        alarm?.cancel()
        alarm = nil
    }
}

extension Health {
    /// Up or down: a health a change to or from counts towards flapping.
    var isSettled: Bool { self == .up || self == .down }
}

