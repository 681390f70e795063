import FoundationEssentials

extension DeckNotification {
    /// What `incident`'s newest update tells: `panel` is ``testPanel`` (StateDeck's own, as for a
    /// test), `title` the incident's, `downSince` when it opened and `downSeconds` how long it has
    /// been open.
    ///
    /// | the update | `message` |
    /// | --- | --- |
    /// | the first (opening) | "Incident opened: Database slow (investigating): We are looking into it" |
    /// | a later one | "Incident update: Database slow (identified): The disk is full" |
    /// | resolving | "Incident resolved after 42 min: Database slow: The disk was cleaned" |
    ///
    /// An announcement (no panels) says "Announcement" in place of "Incident".
    public static func incident(_ incident: Incident) -> DeckNotification {
        let update = incident.updates[incident.updates.count - 1]
        var told = DeckNotification(event: .incident, panel: testPanel, title: incident.title, group: nil, error: nil,
                                    downSince: incident.openedAt, at: update.at)
        let kind = incident.isAnnouncement ? "Announcement" : "Incident"
        told.message = if incident.updates.count == 1 {
            "\(kind) opened: \(incident.title) (\(update.status.rawValue)): \(update.message)"
        } else if update.status == .resolved {
            "\(kind) resolved after \(Duration.seconds(told.downSeconds).lengthText): \(incident.title): \(update.message)"
        } else {
            "\(kind) update: \(incident.title) (\(update.status.rawValue)): \(update.message)"
        }
        told.incident = IncidentStep(id: incident.id, status: update.status, panels: incident.panels,
                                     update: update.message, author: update.author)
        return told
    }
}
