import EventStream
import FoundationEssentials
import Locking
import MicroHTTP
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// The server's copy of the deck's state, kept in step with the deck's events, or with another
/// process's copy (held for a host: several servers sharing one deck through a store).
///
/// Each change goes to the relay as a ``PanelPatch`` against the panel's previous state. The
/// `GET /api/state` document is assembled from each panel's compact form, encoded once per change
/// of the panel and only when a document is asked for; each version of the document is one
/// `SharedBytes`, so the transport builds one response for it and sends that to every request
/// until the state changes. A held copy holds each panel's encoded forms and headline as the
/// process running the deck exported them (``ExportedPanel``), not its `PanelState`.
final class StateMirror: Sendable {
    /// One panel as the mirror holds it: the state of the deck this process runs, with its
    /// compact form once a document needed it, or the forms the process running the deck
    /// exported (a held copy's).
    private enum Panel {
        case running(PanelState, compact: [UInt8]?)
        case held(ExportedPanel)

        var state: PanelState? {
            if case .running(let state, _) = self { state } else { nil }
        }

        var exported: ExportedPanel? {
            if case .held(let panel) = self { panel } else { nil }
        }
    }

    private struct Contents {
        /// Counts the decks followed: events of a deck no longer followed are ignored.
        var generation = 0
        var header: [UInt8]
        var order: [String]
        var panels: [String: Panel]
        /// Each panel's flapping count, as its newest change carried it: a held copy's memory keeps
        /// it, so the next process to run the deck flaps on.
        var flaps: [String: FlapRecord] = [:]
        var toast: (bytes: [UInt8], expires: ContinuousClock.Instant)?
        /// The deck-level error card (the history cannot be saved, say) as JSON, or `null`.
        var notice = Array("null".utf8)
        /// The maintenance windows holding and next (``MaintenanceStatus``), item by item.
        var windows = WindowLists()
        /// The incidents open and those resolved lately, newest first.
        var incidents: [Incident] = []
        /// The same item by item: the state document's `incidents`.
        var incidentItems = ItemList(newestFirst: true)
        /// Whether the deck followed has told its incidents, and its windows: the first time they
        /// are sent whole (those following may hold another deck's, the process that ran it last), then one
        /// change at a time.
        var incidentsTold = false
        var windowsTold = false
        /// A held copy's own error card, shown in place of `notice` while set (the host's store
        /// cannot be reached, so no event can say so).
        var ownNotice: [UInt8]?
        /// Since when `ownNotice` says why the pages may be behind: the held state was last known
        /// to be current then.
        var ownNoticeSince: Date?
        /// A held copy's own version of a panel, shown in place of the exported one while set: the
        /// server's own panel, saying the store cannot be reached.
        var ownPanel: ExportedPanel?
        /// The last `/api/state` document built, with the event id it was built at.
        var document: (eventID: UInt64, body: SharedBytes)?
        /// The deck's clock, once a deck is followed: when each form kept for moments was taken.
        var now: (@Sendable () -> Date)?

        /// Panel `id` as this server shows it: a held copy's own version while set, else as held.
        func panel(_ id: String) -> Panel? {
            if let ownPanel, ownPanel.id == id { return .held(ownPanel) }
            return panels[id]
        }
    }

    let hub: EventHub
    /// Where events go: the hub, or a store shared with other servers, which numbers them.
    let relay: any EventRelay
    private let debug: Bool
    private let pingInterval: Duration
    private let history: PageSettings.HistorySettings?
    private let contents: Locked<Contents>
    private let encoder = JSONBytesEncoder()
    /// Where the forms the document takes are kept, for `GET /api/state?at=`: nil without a
    /// history, and on a held copy (the process running the deck keeps them).
    private let moments: (any HistoryStore)?

    /// An empty mirror; `follow(_:)` or `hold(header:order:panels:)` fills it.
    init(debug: Bool, pingInterval: Duration, history: PageSettings.HistorySettings?, hub: EventHub,
         relay: (any EventRelay)? = nil, moments: (any HistoryStore)? = nil) {
        self.moments = moments
        self.hub = hub
        self.relay = relay ?? hub
        self.debug = debug
        self.pingInterval = pingInterval
        self.history = history
        contents = Locked(Contents(header: [], order: [], panels: [:]))
    }

    /// Mirrors `deck` from now on, and forgets any deck followed before. With `announce`, every
    /// open stream gets the whole new state as a `snapshot` event.
    func follow(_ deck: Deck, announce: Bool = false) async {
        let generation = contents.withLock { contents in
            contents.generation += 1
            return contents.generation
        }
        await deck.observe { [self] event in apply(event, generation: generation) }
        let snapshot = await deck.snapshot()
        let flaps = await deck.flapRecords()
        let settings = PageSettings(pingInterval: pingInterval, deck: deck.configuration, history: history,
                                    notifyTargets: deck.notifyTargets.map(\.name))
        let settingsBytes = (try? encoder.encode(settings)) ?? Array("{}".utf8)
        let now = deck.configuration.now()
        let forms = contents.withLock { contents in
            load(snapshot, settings: settingsBytes, into: &contents)
            contents.flaps = flaps
            contents.now = deck.configuration.now
            return moments == nil ? [] : everyForm(of: contents, at: now)
        }
        moments?.keep(everyForm: forms, at: now)
        if announce {
            relay.relay(event: "snapshot", data: String(decoding: stateDocument(at: hub.lastEventID + 1).bytes, as: UTF8.self),
                        panel: nil)
        }
    }

    private func load(_ snapshot: DeckSnapshot, settings: [UInt8], into contents: inout Contents) {
        let groups = (try? encoder.encode(snapshot.groups)) ?? Array("[]".utf8)
        contents.header = Array(("{\"title\":" + JSONString.quoted(snapshot.title)).utf8)
            + Array(",\"debug\":\(debug),\"settings\":".utf8) + settings + Array(",\"groups\":".utf8) + groups
            + Array(",\"lastEventId\":".utf8)
        contents.order = snapshot.panels.map(\.id)
        contents.panels = Dictionary(snapshot.panels.map { ($0.id, .running($0, compact: nil)) }, uniquingKeysWith: { $1 })
        contents.toast = nil
        contents.windows.replace(with: snapshot.maintenance, encoder: encoder)
        contents.incidents = snapshot.incidents
        contents.incidentItems.replace(with: Self.items(of: snapshot.incidents, encoder: encoder))
        contents.incidentsTold = false
        contents.windowsTold = false
        contents.document = nil
    }

    /// Records one event of the deck of `generation` and publishes it to every stream. Called in
    /// order by the deck.
    private func apply(_ event: DeckEvent, generation: Int) {
        switch event {
        case .panel(let panel):
            // The deck calls in order, so nothing changes the panel between reading and writing.
            guard let old = contents.withLock({ $0.generation == generation ? .some($0.panels[panel.id]?.state) : nil })
            else { return }
            let patch = PanelPatch(from: old, to: panel)
            let content = patch.content
            // A patch of measurements alone (a load whose result is the one shown) is held for
            // the documents and the next patch, and sent to no stream.
            let bytes = content == .measurements ? nil : try? encoder.encode(patch)
            if content != .measurements, bytes == nil { return }
            let (current, now) = contents.withLock { contents -> (Bool, (@Sendable () -> Date)?) in
                guard contents.generation == generation else { return (false, nil) }
                if contents.panels.updateValue(.running(panel, compact: nil), forKey: panel.id) == nil {
                    contents.order.append(panel.id)
                }
                if bytes == nil { contents.document = nil }
                return (true, contents.now)
            }
            // A ping that shows what the panel shows is kept with the panel's next change.
            if current, content == .change, let now, let moments, let form = form(of: panel, at: now()) { moments.keep(form: form) }
            if current, let bytes { relay.relay(event: "panel", data: String(decoding: bytes, as: UTF8.self), panel: panel.id) }
        case .toast(let toast):
            guard let bytes = try? encoder.encode(toast) else { return }
            let current = contents.withLock { contents in
                guard contents.generation == generation else { return false }
                Self.show(toast, bytes: bytes, in: &contents)
                return true
            }
            if current { relay.relay(event: "toast", data: String(decoding: bytes, as: UTF8.self), panel: nil) }
        case .maintenance(let status, _):
            let told = contents.withLock { contents -> (changes: [WindowLists.Change], whole: [UInt8]?)? in
                guard contents.generation == generation else { return nil }
                let changes = contents.windows.replace(with: status, encoder: encoder)
                contents.document = nil
                defer { contents.windowsTold = true }
                return (changes, contents.windowsTold ? nil : contents.windows.json)
            }
            guard let told else { return }
            for change in told.changes { keepForm(change.part, change.json ?? []) }
            if let whole = told.whole {
                relay.relay(event: "maintenance", data: String(decoding: whole, as: UTF8.self), panel: nil)
            } else {
                for change in told.changes { relay.relay(event: "window", data: String(decoding: change.event, as: UTF8.self), panel: nil) }
            }
        case .incidents(let incidents, let keeping):
            let items = Self.items(of: incidents, encoder: encoder)
            let told = contents.withLock { contents -> (changes: [ItemList.Change], whole: [UInt8]?)? in
                guard contents.generation == generation else { return nil }
                contents.incidents = incidents
                let changes = contents.incidentItems.replace(with: items)
                contents.document = nil
                defer { contents.incidentsTold = true }
                return (changes, contents.incidentsTold ? nil : contents.incidentItems.json)
            }
            guard let told else { return }
            // One just opened or updated holds from that update, the time its answer gave: a moment
            // at that instant shows it, however late this is heard.
            let updated = Dictionary(keeping.map { ($0.id, $0.updates[$0.updates.count - 1].at) }, uniquingKeysWith: max)
            for change in told.changes { keepForm(.incident(change.key), change.json ?? [], at: updated[change.key]) }
            if let whole = told.whole {
                relay.relay(event: "incidents", data: String(decoding: whole, as: UTF8.self), panel: nil)
            } else {
                for change in told.changes {
                    relay.relay(event: "incident", data: String(decoding: Self.incidentEvent(change), as: UTF8.self), panel: nil)
                }
            }
        case .change(let change):
            contents.withLock { contents in
                guard contents.generation == generation else { return }
                contents.flaps[change.panel] = change.flaps.changes.isEmpty ? nil : change.flaps
            }
        }
    }

    /// `incidents` as the items of the state document's list.
    static func items(of incidents: [Incident], encoder: JSONBytesEncoder) -> [ItemList.Item] {
        incidents.compactMap { incident in
            (try? encoder.encode(incident)).map { json in
                ItemList.Item(key: incident.id, order: ItemList.Order(time: DeckJSON.timestamp(incident.openedAt), id: incident.id), json: json)
            }
        }
    }

    /// The `incident` event of one change: `{"id", "incident": Incident}`, the incident null when
    /// it left the state document.
    static func incidentEvent(_ change: ItemList.Change) -> [UInt8] {
        Array(#"{"id":"#.utf8) + Array(JSONString.quoted(change.key).utf8) + Array(#","incident":"#.utf8)
            + (change.json ?? Array("null".utf8)) + [UInt8(ascii: "}")]
    }

    private static func show(_ toast: Toast, bytes: [UInt8], in contents: inout Contents) {
        contents.toast = (bytes, ContinuousClock.now.advanced(by: .milliseconds(toast.durationMs)))
    }

    /// Shows `card` above every panel, or removes the notice for nil, and tells every stream.
    func setNotice(_ card: ErrorCard?) {
        let bytes = card.flatMap { try? encoder.encode($0) } ?? Array("null".utf8)
        contents.withLock { contents in
            contents.notice = bytes
            contents.document = nil
        }
        keepForm(.notice, bytes)
        relay.relay(event: "notice", data: String(decoding: bytes, as: UTF8.self), panel: nil)
    }

    /// One panel's current `PanelState` document, every field and its history included, or nil
    /// for an unknown id.
    func panel(_ id: String) -> [UInt8]? {
        switch contents.withLock({ $0.panel(id) }) {
        case .running(let state, _): try? encoder.encode(state)
        case .held(let panel): panel.document
        case nil: nil
        }
    }

    /// The incidents open and those resolved lately, newest first.
    func incidents() -> [Incident] {
        contents.withLock { $0.incidents }
    }

    /// The maintenance windows holding and next: the `GET /api/maintenance` document.
    func maintenanceDocument() -> [UInt8] {
        contents.withLock { $0.windows.json }
    }

    /// Panel `id`'s headline (``PanelHeadline``), or nil for an unknown id.
    func headline(of id: String) -> PanelHeadline? {
        switch contents.withLock({ $0.panel(id) }) {
        case .running(let state, _): PanelHeadline(state)
        case .held(let panel): panel.headline
        case nil: nil
        }
    }

    /// The `GET /api/state` document; rebuilt only when an event came since the last one.
    func stateDocument() -> SharedBytes {
        stateDocument(at: hub.lastEventID)
    }

    /// The state document naming `eventID` as its `lastEventId`. It holds every change up to that
    /// event (the mirror is updated before each publish), and may hold one about to be published.
    func stateDocument(at eventID: UInt64) -> SharedBytes {
        contents.withLock { contents in
            endExpiredToast(in: &contents)
            if let document = contents.document, document.eventID == eventID {
                return document.body
            }
            let parts = documentParts(of: &contents)
            let body = SharedBytes(parts.beforeID + Array(String(eventID).utf8) + parts.afterID)
            contents.document = (eventID, body)
            return body
        }
    }

    /// The state document as it is now, around its `lastEventId`: a host that numbers events puts
    /// the id of the `snapshot` it sends in between.
    func documentParts() -> (beforeID: [UInt8], afterID: [UInt8]) {
        contents.withLock { contents in
            endExpiredToast(in: &contents)
            return documentParts(of: &contents)
        }
    }

    private func endExpiredToast(in contents: inout Contents) {
        guard let toast = contents.toast, toast.expires <= ContinuousClock.now else { return }
        contents.toast = nil
        contents.document = nil
    }

    private func documentParts(of contents: inout Contents) -> (beforeID: [UInt8], afterID: [UInt8]) {
        var bytes = Array(",\"panels\":[".utf8)
        for (index, id) in contents.order.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += compactForm(of: id, in: &contents)
        }
        bytes += Array("],\"notice\":".utf8) + (contents.ownNotice ?? contents.notice)
        bytes += Array(",\"maintenance\":".utf8) + contents.windows.json
        bytes += Array(",\"incidents\":".utf8) + contents.incidentItems.json
        bytes += Array(",\"toast\":".utf8)
        bytes += contents.toast?.bytes ?? Array("null".utf8)
        bytes.append(UInt8(ascii: "}"))
        return (contents.header, bytes)
    }

    /// Keeps `bytes` as the newest form of the deck's `part`, holding from `date` (now when nil),
    /// once a deck is followed (empty: the part is gone, ``MomentForm/gone``).
    private func keepForm(_ part: MomentForm.Part, _ bytes: [UInt8], at date: Date? = nil) {
        guard let moments, let now = contents.withLock({ $0.now }) else { return }
        moments.keep(form: MomentForm(part: part, at: (date ?? now()).millisecondsSince1970,
                                      json: String(decoding: bytes, as: UTF8.self)))
    }

    /// Every part's form in `contents`, taken `at`: what a moment starts from when a deck is followed.
    private func everyForm(of contents: Contents, at date: Date) -> [MomentForm] {
        let at = date.millisecondsSince1970
        let lists = contents.windows.forms + contents.incidentItems.items.map { (MomentForm.Part.incident($0.key), $0.json) }
        return contents.order.compactMap { contents.panels[$0]?.state.flatMap { form(of: $0, at: date) } }
            + [MomentForm(part: .notice, at: at, json: String(decoding: contents.notice, as: UTF8.self))]
            + lists.map { MomentForm(part: $0.0, at: at, json: String(decoding: $0.1, as: UTF8.self)) }
    }

    /// `state`'s form at `date`: its compact form without `loadMs` and `readings`, measurements
    /// each load changes (moments leave them out), with its headline.
    private func form(of state: PanelState, at date: Date) -> MomentForm? {
        var measured = state
        measured.loadMs = nil
        measured.readings = nil
        guard let bytes = try? encoder.encode(PanelPatch(from: nil, to: measured)) else { return nil }
        let summary = state.latestValidInfo?.summary ?? state.latestValidError?.description
        return MomentForm(part: .panel(state.id), at: date.millisecondsSince1970, json: String(decoding: bytes, as: UTF8.self),
                          headline: MomentHeadline(title: state.title, phase: state.phase.rawValue, health: state.health.name,
                                                   summary: summary))
    }

    private func compactForm(of id: String, in contents: inout Contents) -> [UInt8] {
        switch contents.panel(id) {
        case .held(let panel): return panel.compact
        case .running(_, let compact?): return compact
        case .running(let state, nil):
            // Kept until the panel changes: without the encoder's spare capacity, which at 100,000
            // panels would be 20 MB held for nothing.
            let encoded = (try? encoder.encode(PanelPatch(from: nil, to: state))) ?? []
            let bytes = [UInt8](unsafeUninitializedCapacity: encoded.count) { buffer, count in
                count = buffer.initialize(fromContentsOf: encoded)
            }
            contents.panels[id] = .running(state, compact: bytes)
            return bytes
        case nil: return []
        }
    }
}

// MARK: - Held copies

/// A panel as the process running the deck exports it to the copies held elsewhere: its compact form, its whole
/// document and its headline, each as `StateMirror` gives them, and a record of what it showed,
/// which the member that leads next continues it from.
public struct ExportedPanel: Sendable, Equatable {
    public var id: String
    public var compact: [UInt8]
    public var document: [UInt8]
    public var headline: PanelHeadline
    /// What the panel showed, as JSON the server reads back (empty for none).
    public var memoryRecord: [UInt8]

    public init(id: String, compact: [UInt8], document: [UInt8], headline: PanelHeadline, memoryRecord: [UInt8]) {
        self.id = id
        self.compact = compact
        self.document = document
        self.headline = headline
        self.memoryRecord = memoryRecord
    }
}

/// The deck's parts besides its panels as the state document holds them, each as JSON: its notice,
/// its maintenance windows and its incidents.
public struct ExportedDeckParts: Sendable, Equatable {
    public var notice: [UInt8]
    public var maintenance: [UInt8]
    public var incidents: [UInt8]

    public init(notice: [UInt8], maintenance: [UInt8], incidents: [UInt8]) {
        self.notice = notice
        self.maintenance = maintenance
        self.incidents = incidents
    }
}

extension StateMirror {
    /// The state document's opening (title, debug, settings, groups) and the panels' order.
    func exportedLayout() -> (header: [UInt8], order: [String]) {
        contents.withLock { ($0.header, $0.order) }
    }

    /// These panels as a held copy holds them; unknown ids are left out.
    func exportedPanels(_ ids: some Sequence<String>) -> [ExportedPanel] {
        contents.withLock { contents in
            ids.compactMap { id in
                guard let state = contents.panels[id]?.state, let document = try? encoder.encode(state) else { return nil }
                return ExportedPanel(id: id, compact: compactForm(of: id, in: &contents), document: document,
                                       headline: PanelHeadline(state),
                                       memoryRecord: ExportedMemory(state, flaps: contents.flaps[id] ?? FlapRecord()).encoded)
            }
        }
    }

    /// The notice, maintenance and incidents as the state document holds them now.
    func exportedDeckParts() -> ExportedDeckParts {
        contents.withLock { ExportedDeckParts(notice: $0.notice, maintenance: $0.windows.json, incidents: $0.incidentItems.json) }
    }

    /// Holds the deck of `header` and `order`, with these panels (all of them), in place of
    /// anything held before.
    func hold(header: [UInt8], order: [String], panels: [ExportedPanel]) {
        contents.withLock { contents in
            contents.generation += 1
            contents.header = header
            contents.order = order
            contents.panels = [:]
            contents.document = nil
            Self.hold(panels, in: &contents)
        }
    }

    /// Each held panel's memory: what every page was shown of it.
    func heldMemories() -> [String: PanelMemory] {
        contents.withLock { $0.panels }.compactMapValues { $0.exported?.memory }
    }

    /// Updates these panels of a held copy.
    func hold(_ panels: [ExportedPanel]) {
        contents.withLock { contents in Self.hold(panels, in: &contents) }
    }

    private static func hold(_ panels: [ExportedPanel], in contents: inout Contents) {
        for panel in panels {
            if contents.panels.updateValue(.held(panel), forKey: panel.id) == nil, !contents.order.contains(panel.id) {
                contents.order.append(panel.id)
            }
        }
        contents.document = nil
    }

    /// When the state held was last known to be current, while this server shows why its pages
    /// may be behind (``setOwnState(notice:panel:)``); nil while they are not.
    var lastKnownCurrent: Date? {
        contents.withLock { $0.ownNoticeSince }
    }

    /// Shows `card` above every panel in place of the deck's notice and `panel` in place of its
    /// exported version, or the exported state again for nil, and sends the pages connected
    /// now the whole state as a `snapshot` without an id: the store that numbers events is what
    /// cannot be reached, and a patch of this server's own would leave the pages behind the
    /// store's next one.
    func setOwnState(notice card: ErrorCard?, panel: ExportedPanel?) {
        let bytes = card.flatMap { try? encoder.encode($0) }
        contents.withLock { contents in
            contents.ownNotice = bytes
            contents.ownNoticeSince = bytes == nil ? nil : contents.ownNoticeSince ?? Date()
            contents.ownPanel = panel
            contents.document = nil
        }
        let document = stateDocument(at: hub.lastEventID)
        hub.announce(event: "snapshot", data: String(decoding: document.bytes, as: UTF8.self))
    }

    /// The document a stream opens with at `eventID`, and whether it is the one that id names on
    /// every server following the same events: not while this one shows a state of its own
    /// (``setOwnState(notice:panel:)``), which it then sends without an id.
    func openingSnapshot(at eventID: UInt64) -> (data: String, numbered: Bool) {
        let own = contents.withLock { $0.ownNotice != nil || $0.ownPanel != nil }
        return (String(decoding: stateDocument(at: eventID).bytes, as: UTF8.self), !own)
    }

    /// `state` as a held copy holds a panel.
    func exported(_ state: PanelState) -> ExportedPanel? {
        guard let compact = try? encoder.encode(PanelPatch(from: nil, to: state)),
              let document = try? encoder.encode(state) else { return nil }
        return ExportedPanel(id: state.id, compact: compact, document: document, headline: PanelHeadline(state),
                               memoryRecord: ExportedMemory(state).encoded)
    }

    /// The held memory of panel `id`, or nil for a panel the held copy does not hold.
    func heldMemory(of id: String) -> PanelMemory? {
        contents.withLock { $0.panels[id]?.exported }?.memory
    }

    /// Holds `panels`, then keeps what each of `events` changes (the notice, the maintenance, the
    /// incidents) and publishes it on this server's hub under its id, the first after a gap or not
    /// (``EventHub/publish(event:data:id:afterGap:)``), all as one step: a stream opening meanwhile
    /// gets a snapshot holding all of it or none, so its id names the document it names on every
    /// server following the same events.
    ///
    /// A `snapshot` is published as the process running the deck wrote it, or, without data (one
    /// made here after a gap), as this copy's own state document at its id: `panels` must then
    /// hold the deck as of that id.
    ///
    /// A toast is only passed on, never kept for the state document: when it ends would be
    /// counted from when each server read it (a server catching up reads it late), so the same
    /// event id would name documents with and without it on different servers.
    func serve(_ events: [HeldEvent], afterGap: Bool, holding panels: HeldPanels?) {
        hub.publishTogether { publish in
            switch panels {
            case .deck(let header, let order, let panels, let parts):
                hold(header: header, order: order, panels: panels)
                if let parts {
                    for (event, data) in [("notice", parts.notice), ("maintenance", parts.maintenance), ("incidents", parts.incidents)] {
                        _ = keep(HeldEvent(event: event, data: String(decoding: data, as: UTF8.self), id: 0))
                    }
                }
            case .changed(let panels): hold(panels)
            case nil: break
            }
            for (index, event) in events.enumerated() {
                _ = publish(event.event, keep(event), event.id, afterGap && index == 0)
            }
        }
    }

    /// Keeps what `event` changes; returns the data to publish.
    private func keep(_ event: HeldEvent) -> String {
        let data = event.data
        switch event.event {
        case "notice":
            contents.withLock { contents in
                contents.notice = Array(data.utf8)
                contents.document = nil
            }
        // Read as the process running the deck wrote them; an event this version cannot read leaves the last held.
        case "maintenance":
            guard let status = try? ExportedMemory.decoder.decode(MaintenanceStatus.self, from: Data(data.utf8)) else { break }
            contents.withLock { contents in
                contents.windows.replace(with: status, encoder: encoder)
                contents.document = nil
            }
        case "window":
            guard let change = try? ExportedMemory.decoder.decode(WindowLists.Event.self, from: Data(data.utf8)) else { break }
            contents.withLock { contents in
                contents.windows.apply(change, encoder: encoder)
                contents.document = nil
            }
        case "incidents":
            guard let incidents = try? ExportedMemory.decoder.decode([Incident].self, from: Data(data.utf8)) else { break }
            contents.withLock { contents in
                contents.incidents = incidents
                contents.incidentItems.replace(with: Self.items(of: incidents, encoder: encoder))
                contents.document = nil
            }
        case "incident":
            guard let change = try? ExportedMemory.decoder.decode(IncidentEvent.self, from: Data(data.utf8)) else { break }
            contents.withLock { contents in
                contents.incidents.removeAll { $0.id == change.id }
                contents.incidents += change.incident.map { [$0] } ?? []
                contents.incidents.sort { ($0.openedAt, $0.id) > ($1.openedAt, $1.id) }
                contents.incidentItems.apply(Self.items(of: change.incident.map { [$0] } ?? [], encoder: encoder).first, key: change.id)
                contents.document = nil
            }
        case "snapshot" where data.isEmpty:
            return String(decoding: stateDocument(at: event.id).bytes, as: UTF8.self)
        default:
            break
        }
        return data
    }
}

/// An event the process running the deck made, numbered by the host.
public struct HeldEvent: Sendable, Equatable {
    public var event: String
    public var data: String
    public var id: UInt64

    public init(event: String, data: String, id: UInt64) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// What a held copy holds anew with a batch of events: the whole deck (its layout, every panel,
/// and its other parts once told), or the panels the events changed.
public enum HeldPanels: Sendable {
    case deck(header: [UInt8], order: [String], panels: [ExportedPanel], parts: ExportedDeckParts?)
    case changed([ExportedPanel])
}

// MARK: - A frozen moment

extension StateMirror {
    /// Holds the moment `fixture` (read from `file`) shows, in place of anything held before, as a
    /// held copy holds a deck another process runs: its panels as the fixture has them, and its
    /// notice, maintenance and incidents. Nothing is published: a page opening it gets it as its snapshot.
    func freeze(_ fixture: DeckFixture, file: String) {
        hold(header: fixture.header(debug: debug, file: file), order: fixture.panelIDs, panels: fixture.exportedPanels())
        contents.withLock { contents in
            contents.notice = fixture.notice.bytes
            contents.windows = WindowLists(fixture.maintenance)
            contents.incidents = fixture.keptIncidents
            contents.incidentItems = ItemList(fixture: .array(fixture.incidents), time: "openedAt", newestFirst: true) { id, _ in id }
            contents.document = nil
        }
    }

    /// Holds `panel` in place of the version held, and sends every open page the whole state as a
    /// `snapshot`: a replay's debug state, which no patch of its own leads up to.
    func replaceFrozen(_ panel: ExportedPanel) {
        hold([panel])
        hub.announce(event: "snapshot", data: String(decoding: stateDocument(at: hub.lastEventID).bytes, as: UTF8.self))
    }
}
