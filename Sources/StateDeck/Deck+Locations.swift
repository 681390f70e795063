extension Deck {
    /// How each panel fares from other places (remote probes), by panel id, in place of what was
    /// set before: a panel not named, or named with no location, goes back to showing its own
    /// place only. Ids of no panel here are skipped (a probe running another version of the deck
    /// file), and so is a place of the deck's own name (``Configuration/location``), which the
    /// deck tells itself. Changed panels are published.
    public func setRemoteLocations(_ locations: [String: [PanelLocation]]) {
        for index in panels.indices {
            let remote = (locations[panels[index].panel.id] ?? [])
                .filter { $0.name != configuration.location }
                .sorted { $0.name < $1.name }
            guard remote != panels[index].remoteLocations else { continue }
            panels[index].remoteLocations = remote
            publish(index)
        }
    }

    /// What the deck saw of each panel from its own place, by panel id: what a probe reports.
    public func locationRecords() -> [String: LocationRecord] {
        Dictionary(uniqueKeysWithValues: panels.map { ($0.panel.id, $0.ownRecord) })
    }
}
