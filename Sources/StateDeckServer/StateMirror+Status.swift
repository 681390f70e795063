import StateDeck

extension StateMirror {
    /// What the status page reads of each of `ids` the mirror holds: its health, whether a
    /// maintenance window holds it and whether it flaps, from its headline, which a held copy holds
    /// as the process running the deck made it: every server sharing the deck reads the same.
    func statusReadings(of ids: some Sequence<String>) -> [String: StatusFacts.Reading] {
        var readings: [String: StatusFacts.Reading] = [:]
        for id in ids {
            guard let headline = headline(of: id) else { continue }
            readings[id] = StatusFacts.Reading(health: headline.health, inMaintenance: headline.inMaintenance,
                                               flapping: headline.flapping)
        }
        return readings
    }
}
