/// How many of a thing operators may have at once: each is kept, stored with the history and sent
/// to every open page, so none may grow without bound. A request past one is refused (409
/// `too_many`) until one is resolved or ended.
///
/// | what | most | why it is enough |
/// | --- | --- | --- |
/// | ``openIncidents`` | 50 | a status page with more than a handful open says nothing any more |
/// | ``incidentUpdates`` | 100, the last only resolving it | an update every 15 min for a day |
/// | ``incidentText``: the UTF-8 bytes of an incident's messages together | 100,000, beyond it only the update resolving it | twenty pages of text; it bounds what one incident weighs in the state document, the stream and each form the history keeps of it (its updates times ``TextLimit/message`` would be 2 MB) |
/// | ``startedMaintenance``: windows started by hand and holding | 50 | one a panel group is plenty; a deck file declares the rest |
public struct CountLimit: Sendable, Equatable, CustomStringConvertible {
    /// What is counted, as the refusal's `limit` names it: `open incidents`.
    public let what: String
    public let count: Int
    /// What frees room, for the refusal's message.
    let remedy: String

    public static let openIncidents = CountLimit(what: "open incidents", count: 50, remedy: "resolve one first")
    public static let incidentUpdates = CountLimit(what: "updates of an incident", count: 100,
                                                   remedy: "the last may only resolve it; open a new one to go on")
    public static let incidentText = CountLimit(what: "bytes of an incident's messages", count: 100_000,
                                                remedy: "only the update that resolves it goes beyond; open a new one to go on")
    public static let startedMaintenance = CountLimit(what: "maintenance windows started by hand and holding", count: 50,
                                                      remedy: "end one first")

    /// "There may be at most 50 open incidents: resolve one first."
    public var description: String {
        "There may be at most \(TextLimit.grouped(count)) \(what): \(remedy)."
    }
}
