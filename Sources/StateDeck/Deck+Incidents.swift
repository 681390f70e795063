import FoundationEssentials

extension Deck {
    /// Opens an incident now over panels `ids` (none: an announcement), its first update saying
    /// `status` and `message`, written by `author`. Returns it, with its id; past
    /// ``CountLimit/openIncidents`` open, `tooMany`.
    public func openIncident(title: String, panels ids: [String], status: Incident.Status, message: String,
                             author: String) throws(DeckError) -> Incident {
        for id in ids { _ = try index(of: id) }
        var seen = Set<String>()
        let incident = try incidents.open(title: title, panels: ids.filter { seen.insert($0).inserted }, status: status,
                                      message: message, author: author, at: configuration.now())
        refreshIncidents(keeping: [incident])
        return incident
    }

    /// Adds an update to incident `id` now: its new `status` (`resolved` resolves it) and
    /// `message`, written by `author`. A resolved incident takes no more updates.
    public func updateIncident(_ id: String, status: Incident.Status, message: String,
                               author: String) throws(DeckError) -> Incident {
        let update = Incident.Update(at: configuration.now(), status: status, message: message, author: author)
        let incident = try incidents.update(id, with: update)
        refreshIncidents(keeping: [incident])
        return incident
    }

    /// Incident `id`, open or past.
    public func incident(_ id: String) throws(DeckError) -> Incident {
        guard let incident = incidents.incident(id) else { throw .unknownIncident(id) }
        return incident
    }

    /// The incidents kept, open and past, newest first, at most `limit`.
    public func incidentList(limit: Int) -> [Incident] {
        Array(incidents.all.prefix(limit))
    }

    /// Every incident kept, to carry into the deck that replaces this one.
    public func keptIncidents() -> [Incident] {
        incidents.all
    }

    /// Takes up the incidents a history store kept (or the deck this one replaces had). Call
    /// before `start()`.
    public func restoreIncidents(_ kept: [Incident]) {
        incidents.restore(kept, at: configuration.now())
    }

    /// Tells observers the incidents the state shows when they changed (or the first time), with
    /// `keeping` (those just opened or updated) for a history to keep and targets to be told;
    /// then sets the alarm for the next resolved one to leave the state, once the deck is started.
    func refreshIncidents(keeping: [Incident]) {
        let date = configuration.now()
        let recent = incidents.recent(at: date)
        if recent != incidents.told || !keeping.isEmpty {
            incidents.told = recent
            emit(.incidents(recent, keep: keeping))
        }
        incidents.alarm?.cancel()
        incidents.alarm = nil
        incidents.nextChange = incidents.nextChange(after: date)
        guard isStarted, let next = incidents.nextChange else { return }
        let deadline = clock.now + .seconds(max(0, next.timeIntervalSince(date)))
        incidents.alarm = clock.alarm(at: deadline) { [weak self] in await self?.incidentChangeDue(next) }
    }

    /// The alarm for `due` rang: unless something moved it meanwhile, the state's incidents are
    /// looked at again.
    private func incidentChangeDue(_ due: Date) {
        guard incidents.nextChange == due else { return }
        refreshIncidents(keeping: [])
    }
}
