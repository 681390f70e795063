import FoundationEssentials
import StateDeck

extension DeckFixture {
    /// The state document's opening, as ``StateMirror`` begins it, for a server whose debug
    /// states are on (`debug`) or off, replaying `file`: its `replay` tells the page what it shows
    /// (the file's name, not the folders it lies in).
    func header(debug: Bool, file: String) -> [UInt8] {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let replay = FixtureJSON.object(["file": .string(name), "at": .string(at)])
        return Array("{\"title\":".utf8) + FixtureJSON.string(deck.title).bytes + Array(",\"debug\":\(debug),\"replay\":".utf8)
            + replay.bytes + Array(",\"settings\":".utf8)
            + deck.settings.bytes + Array(",\"groups\":".utf8) + FixtureJSON.array(deck.groups.map(\.json)).bytes
            + Array(",\"lastEventId\":".utf8)
    }

    /// Every panel as a held copy holds it: its compact form as the fixture has it, its document
    /// (`GET /api/panels/{id}`) the same with its one known state as its history, and what it
    /// showed, which a debug state starts from.
    func exportedPanels() -> [ExportedPanel] {
        panels.compactMap(Self.exported)
    }

    /// Panel `id` as the fixture has it, or nil for an id it lacks.
    func heldPanel(_ id: String) -> ExportedPanel? {
        panels.first { $0["id"] == .string(id) }.flatMap(Self.exported)
    }

    private static func exported(_ panel: FixtureJSON) -> ExportedPanel? {
        guard case .object(var members) = panel, case .string(let id)? = members["id"] else { return nil }
        let shown = FixturePanel(panel)
        let compact = panel.bytes
        members["history"] = .array(shown.since.map { [.object(["state": .string(shown.phase.rawValue), "at": .string($0)])] } ?? [])
        let title = shown.title.isEmpty ? id : shown.title
        return ExportedPanel(id: id, compact: compact, document: FixtureJSON.object(members).bytes,
                               headline: PanelHeadline(label: title, health: shown.health, inMaintenance: shown.inMaintenance,
                                                       flapping: shown.flapping),
                               memoryRecord: shown.memory.encoded)
    }
}

extension DeckFixture.Group {
    var json: FixtureJSON { .object(["id": .string(id), "title": .string(title)]) }
}

/// What a panel's compact form says it showed: enough to draw it again after a debug state, and to
/// start that state from. Fields it cannot read are left at their defaults.
struct FixturePanel {
    var title = ""
    var group: String?
    var phase = ViewState.Phase.initial
    var health = Health.unknown
    var since: String?
    var stale = false
    var restored = false
    /// Whether it carries a maintenance window's mark, and a flapping status.
    var inMaintenance = false
    var flapping = false
    var placeholder: Info?
    var memory: ExportedMemory

    init(_ panel: FixtureJSON) {
        func read<Value: Decodable>(_ key: String, as type: Value.Type) -> Value? {
            guard let value = panel[key], value != .null else { return nil }
            return try? ExportedMemory.decoder.decode(Value.self, from: Data(value.bytes))
        }
        title = read("title", as: String.self) ?? ""
        group = read("group", as: String.self)
        phase = read("phase", as: String.self).flatMap(ViewState.Phase.init(rawValue:)) ?? .initial
        health = read("health", as: Health.self) ?? .unknown
        since = read("since", as: String.self)
        stale = read("stale", as: Bool.self) ?? false
        restored = read("restored", as: Bool.self) ?? false
        inMaintenance = panel["maintenance"].map { $0 != .null } ?? false
        flapping = panel["flapping"].map { $0 != .null } ?? false
        placeholder = read("placeholder", as: Info.self)
        let phase = phase
        let at = since.flatMap { try? ISO8601Time.parse($0) }
        let info = read("latestValidInfo", as: Info.self)
        let error = read("latestValidError", as: ErrorCard.self)
        memory = ExportedMemory(
            history: at.map { [ViewStateHistory.Entry(state: phase, at: $0)] } ?? [], info: info, error: error,
            latestInfo: read("latestInfo", as: Info.self) ?? info, latestError: read("latestError", as: ErrorCard.self) ?? error,
            stale: stale, health: health)
    }
}

extension ExportedMemory {
    /// A record of what a panel showed, from its parts.
    init(history: [ViewStateHistory.Entry], info: Info?, error: ErrorCard?, latestInfo: Info?, latestError: ErrorCard?,
         stale: Bool, health: Health) {
        self.history = history
        self.info = info
        self.error = error
        self.latestInfo = latestInfo
        self.latestError = latestError
        self.stale = stale
        self.health = health
        lastRunMs = nil
    }
}
