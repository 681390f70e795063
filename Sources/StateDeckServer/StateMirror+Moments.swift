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
    /// | panel `loadMs`, `readings` | left out: measurements, not a state |
    /// | panel `heartbeat` | never with a ping path, which a form kept by an older StateDeck holds: `hasPingURL` in its place |
    /// | `notice` | its newest form at or before `at` |
    /// | `maintenance`, `incidents` | each window's and each incident's newest form at or before `at`, in the lists' order; before histories kept them one by one, the whole list's |
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
        text += ",\"maintenance\":" + (Self.whole(.maintenance, in: moment) ?? String(decoding: Self.windows(in: moment).json, as: UTF8.self))
        text += ",\"incidents\":" + (Self.whole(.incidents, in: moment) ?? String(decoding: Self.incidents(in: moment).json, as: UTF8.self))
        text += ",\"toast\":null}"
        return header + Array(text.utf8)
    }

    /// The whole list a history written before kept as one form, when `moment` has it: a deck
    /// followed anew marks it gone, so a moment after has the items instead.
    private static func whole(_ part: MomentForm.Part, in moment: Moment) -> String? {
        moment.forms[part].map(\.json).flatMap { $0 == MomentForm.gone ? nil : $0 }
    }

    /// The incidents `moment` lists, newest opened first.
    private static func incidents(in moment: Moment) -> ItemList {
        ItemList(newestFirst: true, items: moment.forms.compactMap { part, form in
            guard case .incident(let id) = part else { return nil }
            return item(form, key: id, time: "openedAt")
        })
    }

    /// The windows `moment` holds active and next, each by start.
    private static func windows(in moment: Moment) -> WindowLists {
        var active: [ItemList.Item] = []
        var next: [ItemList.Item] = []
        for (part, form) in moment.forms {
            switch part {
            case .activeWindow(let key): active += item(form, key: key, time: "from").map { [$0] } ?? []
            case .nextWindow(let key): next += item(form, key: key, time: "from").map { [$0] } ?? []
            default: break
            }
        }
        return WindowLists(active: ItemList(newestFirst: false, items: active), next: ItemList(newestFirst: false, items: next))
    }

    /// `form` as an item of its list, sorted by its `time` member then its id, its JSON as kept;
    /// nil when it is gone or cannot be read.
    private static func item(_ form: MomentForm, key: String, time: String) -> ItemList.Item? {
        guard form.json != MomentForm.gone,
              let fields = try? JSONDecoder().decode(FixtureJSON.self, from: Data(form.json.utf8)) else { return nil }
        return ItemList.Item(key: key, order: ItemList.Order(time: fields[time]?.text ?? "", id: fields["id"]?.text ?? ""),
                             json: Array(form.json.utf8))
    }
}
