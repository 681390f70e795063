import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory

extension StateMirror {
    /// The `GET /api/state` document's bytes: as it is now for nil, else as it was at `instant`,
    /// rebuilt from the forms `history` kept (``stateDocument(of:)``).
    func stateDocument(at instant: Date?, history: (any HistoryStore)?) throws(MomentError) -> [UInt8] {
        guard let instant else { return stateDocument().bytes }
        guard let history else { throw .notKept }
        return stateDocument(of: try history.moment(at: instant))
    }

    /// The state document of `moment`, in the live document's shape with `at` and `watched` after
    /// `lastEventId`:
    ///
    /// | member | at a moment |
    /// | --- | --- |
    /// | `title`, `debug`, `settings`, `groups` | the deck's now: a moment keeps what it showed, not its file |
    /// | `lastEventId` | 0: a moment is no point of the event stream to resume from |
    /// | `at` | the instant asked, ISO 8601 with milliseconds |
    /// | `watched` | false while no process ran the deck (between a stop or a crash and the next start) |
    /// | `panels` | each panel's newest form at or before `at`, in the deck's order now, then any removed since, by id; a panel not shown yet, or removed by then, is left out |
    /// | panel `loadMs` | left out: a measurement, not a state |
    /// | panel `heartbeat` | never with a ping path, which a form kept by an older StateDeck holds: `hasPingURL` in its place |
    /// | `notice`, `maintenance`, `incidents` | their newest form at or before `at` |
    /// | `toast` | null: toasts are not kept |
    func stateDocument(of moment: Moment) -> [UInt8] {
        let (header, order) = exportedLayout()
        var panels: [String: String] = [:]
        for case (.panel(let id), let form) in moment.forms where form.json != MomentForm.gone {
            panels[id] = FixtureJSON.panelFormWithoutPingPath(form.json)
        }
        let ordered = order.filter { panels[$0] != nil }
        let gone = Set(panels.keys).subtracting(order).sorted()
        var text = "0,\"at\":\"\(DeckJSON.timestamp(moment.at))\",\"watched\":\(moment.watched),\"panels\":["
        text += (ordered + gone).compactMap { panels[$0] }.joined(separator: ",")
        text += "],\"notice\":" + (moment.forms[.notice]?.json ?? "null")
        text += ",\"maintenance\":" + (moment.forms[.maintenance]?.json ?? #"{"active":[],"next":[]}"#)
        text += ",\"incidents\":" + (moment.forms[.incidents]?.json ?? "[]")
        text += ",\"toast\":null}"
        return header + Array(text.utf8)
    }
}
