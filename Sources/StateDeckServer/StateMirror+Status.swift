import StateDeck

extension StateMirror {
    /// What the status page reads of each of `ids` the mirror holds: its health, whether a
    /// maintenance window holds it and whether it flaps. A replica holds a panel's headline only,
    /// which tells its health.
    func statusReadings(of ids: some Sequence<String>) -> [String: StatusFacts.Reading] {
        var readings: [String: StatusFacts.Reading] = [:]
        for id in ids {
            if let state = panelState(id) {
                readings[id] = StatusFacts.Reading(health: state.health, inMaintenance: state.maintenance != nil,
                                                   flapping: state.flapping != nil)
            } else if let headline = headline(of: id) {
                readings[id] = StatusFacts.Reading(health: headline.health)
            }
        }
        return readings
    }
}
