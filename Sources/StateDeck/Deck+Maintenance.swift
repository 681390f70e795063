import FoundationEssentials

extension Deck {
    /// Starts a window now over panels `ids` and the panels of `groups`, for `duration`: their
    /// state carries it until it ends, and their time counts as maintenance rather than up or
    /// down. Returns the window, with its id; past ``CountLimit/startedMaintenance`` holding,
    /// `tooMany`.
    public func startMaintenance(panels ids: [String], groups groupIds: [String], for duration: Duration,
                                 reason: String) throws(DeckError) -> MaintenanceSpan {
        for id in ids { _ = try index(of: id) }
        for groupId in groupIds where !groups.contains(where: { $0.id == groupId }) { throw .unknownGroup(groupId) }
        let covered = panels.map(\.panel).filter { panel in
            ids.contains(panel.id) || panel.group.map { groupIds.contains($0.id) } == true
        }
        let span = try maintenance.start(panels: covered.map(\.id), reason: reason, at: configuration.now(), for: duration)
        refreshMaintenance(keeping: [span])
        return span
    }

    /// Ends window `id` now (a recurring one: its stretch holding now), and returns it as ended.
    public func endMaintenance(_ id: String) throws(DeckError) -> MaintenanceSpan {
        guard let span = maintenance.end(id, at: configuration.now()) else { throw .unknownMaintenance(id) }
        refreshMaintenance(keeping: [span])
        return span
    }

    /// The windows holding, and the next stretch of each declared one, as observers last heard.
    public func maintenanceStatus() -> MaintenanceStatus {
        maintenance.told ?? MaintenanceStatus()
    }

    /// The windows started through the API and the stretches ended early, to carry into the deck
    /// that replaces this one.
    public func keptMaintenance() -> [MaintenanceSpan] {
        maintenance.kept
    }

    /// Takes up the windows a history store kept (or the deck this one replaces had): those still
    /// holding open again at `start()`. Call before `start()`.
    public func restoreMaintenance(_ kept: [MaintenanceSpan]) {
        maintenance.restore(kept)
    }

    /// Brings each panel's mark in line with the windows holding now: a panel whose mark changed
    /// gets a `.mark` change; observers hear the status the first time and when it changed, with
    /// `keeping` (the windows just started or ended by hand) for a history to keep. Windows that
    /// can hold no more are forgotten first. Then sets the alarm for the next change, once the
    /// deck is started.
    func refreshMaintenance(keeping: [MaintenanceSpan]) {
        let date = configuration.now()
        maintenance.prune(at: date)
        let status = maintenance.status(at: date)
        let marks = MaintenanceBook.marks(of: status.active)
        for index in panels.indices where panels[index].maintenance != marks[panelIds[index]] {
            panels[index].maintenance = marks[panelIds[index]]
            emitChange(panels[index].history.current, on: index, at: date, cause: .mark, recorded: false)
            publish(index)
        }
        if status != maintenance.told || !keeping.isEmpty {
            maintenance.told = status
            emit(.maintenance(status, keep: keeping))
        }
        maintenance.alarm?.cancel()
        maintenance.alarm = nil
        maintenance.nextChange = maintenance.nextChange(after: date, from: status)
        guard isStarted, let next = maintenance.nextChange else { return }
        let deadline = clock.now + .seconds(max(0, next.timeIntervalSince(date)))
        maintenance.alarm = clock.alarm(at: deadline) { [weak self] in await self?.maintenanceChangeDue(next) }
    }

    /// The alarm for `due` rang: unless something moved it meanwhile, what holds is looked at again
    /// (a wall clock set back since waits again, the next change being `due` still).
    private func maintenanceChangeDue(_ due: Date) {
        guard maintenance.nextChange == due else { return }
        refreshMaintenance(keeping: [])
    }
}
