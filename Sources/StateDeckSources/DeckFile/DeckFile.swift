import FoundationEssentials
import StateDeck
import StateDeckHistory
import YAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A deck declared in a YAML or JSON file (the `--config` of the command line): its title and
/// panels, validated as a whole. See `examples/stack.yaml` for every key.
public struct DeckFile: Sendable, Hashable {
    /// The deck's heading ("StateDeck" when the file has none).
    public var title: String
    /// In the file's order, ids unique.
    public var panels: [PanelSpec]
    /// How long toasts stay (`toasts.duration`, 4 s by default).
    public var toastDuration: Duration
    /// Where the page draws toasts (`toasts.position`, top by default).
    public var toastPosition: Toast.Position
    /// How long history is kept (`history.changes`, `.minutes`, `.hours`, `.days`).
    public var historyRetention = HistoryRetention()
    /// Whether the deck ends with StateDeck's own panel, "StateDeck itself" (id `statedeck`, in a
    /// group "StateDeck"): `statedeckPanel`, on by default.
    public var statedeckPanel = true
    /// The maintenance windows (`maintenance:`), in the file's order.
    public var maintenance: [MaintenanceSpec] = []
    /// Where incidents and announcements are told (`incidents: { notify: [...] }`).
    public var incidents = IncidentsSpec()
    /// When a panel is flapping (`flapping: { changes, within }`, more than 5 changes of health in
    /// 10 min by default); nil for `flapping: off`.
    public var flapping: FlappingRule? = FlappingRule()
    /// The public status page (`status:`); nil for none, when `/status` is 404.
    public var status: StatusPage?

    /// A deck file's content, built in code.
    public init(
        title: String,
        panels: [PanelSpec],
        toastDuration: Duration = Deck.Configuration().toastDuration,
        toastPosition: Toast.Position = Deck.Configuration().toastPosition
    ) {
        self.title = title
        self.panels = panels
        self.toastDuration = toastDuration
        self.toastPosition = toastPosition
    }

    /// Reads and validates the file at `path`; `${VAR}` references take their values from
    /// `environment`, and relative paths start at the file's folder.
    ///
    /// - Throws: every problem found, each with the file, the line and the key path.
    public static func load(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DeckFileError) -> DeckFile {
        let url = URL(fileURLWithPath: path)
        let problem = { (line: Int?, message: String) in
            DeckFileError(problems: [DeckFileProblem(file: path, line: line, path: "", message: message)])
        }
        // A named pipe or a device would block the read, or never end it.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw problem(nil, "is not a regular file (a folder, named pipe or device)")
        }
        if info.st_size > Self.maximumBytes {
            throw problem(nil, "is \(info.st_size) bytes; a deck file holds at most \(Self.maximumBytes) (64 MiB)")
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile ? "no such file" : "cannot be read"
            throw problem(nil, reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let line = Self.lineOfFirstInvalidUTF8(in: Array(bytes))
            throw problem(line, "is not UTF-8 text: save it as UTF-8")
        }
        return try parse(text, file: path, folder: url.deletingLastPathComponent().path, environment: environment)
    }

    /// The line holding the first byte that is not part of valid UTF-8.
    private static func lineOfFirstInvalidUTF8(in bytes: [UInt8]) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var line = 1
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" { line += 1 }
        }
        return line
    }

    /// Validates deck file `text`, named `file` in the problems, whose relative paths start at `folder`.
    public static func parse(
        _ text: String,
        file: String,
        folder: String,
        environment: [String: String] = [:]
    ) throws(DeckFileError) -> DeckFile {
        let reader = DeckFileReader(file: file, folder: folder, environment: environment)
        // A byte order mark (Windows editors write one) is not part of the text: read as a
        // character, it would put the first key one column in from the others.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let deck = reader.compose(text).flatMap { DeckFile(reading: ConfigNode(node: $0, path: .root, reader: reader)) }
        guard let deck, !reader.hasProblems else {
            throw DeckFileError(problems: reader.problems)
        }
        return deck
    }
}

// MARK: - Reading

extension DeckFile {
    static let keys = ["title", "defaults", "groups", "toasts", "history", "statedeckPanel", "flapping", "panels",
                       "maintenance", "incidents", "status"]
    /// The id of StateDeck's own panel and of its group, which a file's panels and groups leave
    /// to it while it is on.
    public static let statedeckPanelID = "statedeck"
    /// The largest deck file read (64 MiB, about 500,000 panels of one line each): memory is what
    /// bounds a deck's panels, and each costs the same whatever their number (README, Limits).
    public static let maximumBytes = 64 * 1024 * 1024

    /// Reads the whole document, reporting every problem; nil when a required part is unusable.
    init?(reading root: ConfigNode) {
        guard let map = root.mapping(allowing: Self.keys) else { return nil }
        let title = map["title"]?.text()
        let toasts = map["toasts"]?.mapping(allowing: ["duration", "position"])
        let duration = toasts?["duration"]?.duration()
        let position = toasts?["position"]?.choice(of: Toast.Position.allCases)
        let history = map["history"].map(Self.retention)
        let statedeckPanel = map["statedeckPanel"]?.bool() ?? true
        let flapping = map["flapping"].map(Self.flapping)
        var defaults = PanelSettings()
        if let settings = map["defaults"]?.mapping(allowing: PanelSettings.keys) {
            defaults = defaults.overridden(by: settings)
        }
        let groups = map["groups"].flatMap { GroupSpec.list(reading: $0, defaults: defaults) }
        guard let list = map.required("panels")?.list() else { return nil }
        if list.isEmpty { map["panels"]?.problem("needs at least one panel") }
        let panels = list.map { PanelSpec(reading: $0, defaults: defaults, groups: groups) }
        ConfigNode.reportReusedIds(zip(list, panels.map { $0?.id }))
        if statedeckPanel { Self.reportStatedeckIds(zip(list, panels)) }
        let maintenance = map["maintenance"].flatMap { MaintenanceSpec.list(reading: $0, panels: panels.compactMap(\.self)) }
        let incidents = map["incidents"].flatMap(IncidentsSpec.init(reading:))
        let status = map["status"].flatMap { StatusSpec.page(reading: $0, panels: panels.compactMap(\.self)) }
        guard !panels.contains(where: { $0 == nil }) else { return nil }
        Self.reportDependencies(of: zip(list, panels.compactMap(\.self)), in: map)
        self.init(title: title ?? "StateDeck", panels: panels.compactMap(\.self))
        self.maintenance = maintenance ?? []
        incidents.map { self.incidents = $0 }
        self.status = status
        toastDuration = duration ?? toastDuration
        toastPosition = position ?? toastPosition
        historyRetention = history ?? historyRetention
        self.statedeckPanel = statedeckPanel
        flapping.map { self.flapping = $0 }
    }

    /// Reports a panel, or a panel's group, taking the id of StateDeck's own panel or its group.
    private static func reportStatedeckIds(_ panels: some Sequence<(ConfigNode, PanelSpec?)>) {
        let id = statedeckPanelID
        let turnOff = "choose another, or leave that panel out with statedeckPanel: false"
        for (node, panel) in panels {
            guard let panel else { continue }
            if panel.id == id, let idNode = node.node["id"].map({ node.child($0, at: .key("id")) }) {
                idNode.problem("\(id) is the id of StateDeck's own panel, \"StateDeck itself\"; \(turnOff)")
            }
            if panel.group?.id == id, let groupNode = node.node["group"].map({ node.child($0, at: .key("group")) }) {
                groupNode.problem("\(id) is the group of StateDeck's own panel; \(turnOff)")
            }
        }
    }

    /// `history:`: how long changes and the tallies of minutes, hours and days are kept, each
    /// from an hour to ten years.
    private static func retention(_ node: ConfigNode) -> HistoryRetention {
        var retention = HistoryRetention()
        guard let map = node.mapping(allowing: ["changes", "minutes", "hours", "days"]) else { return retention }
        let longest = Duration.seconds(10 * 366 * 86_400)
        func keep(_ key: String, _ value: inout Duration) {
            if let duration = map[key]?.duration(atLeast: .seconds(3_600), atMost: longest) { value = duration }
        }
        keep("changes", &retention.changes)
        keep("minutes", &retention.minutes)
        keep("hours", &retention.hours)
        keep("days", &retention.days)
        return retention
    }
}

// MARK: - The deck

extension DeckFile {
    /// The core's panels, in the file's order. Recovery options, item actions and notify commands
    /// run their commands with `runner`; heartbeats whose file sets no key are pinged with their
    /// `pingKeys` one (by panel id).
    public func makePanels(runner: CommandRunner = CommandRunner(), pingKeys: [String: String] = [:]) -> [Panel] {
        panels.map { $0.makePanel(runner: runner, pingKeys: pingKeys) }
    }

    /// The heartbeat panels whose file sets no ping key: StateDeck makes theirs (``PingKeys``).
    public var panelsWithoutPingKeys: [String] {
        panels.compactMap { panel in
            if case .heartbeat(let heartbeat) = panel.source, heartbeat.key == nil { panel.id } else { nil }
        }
    }

    /// The deck of the file's title, toast settings, panels, then `appended` (StateDeck's own
    /// panel), maintenance windows, incident targets and status page; panels in `memories` continue
    /// from the deck this one replaces.
    public func makeDeck(
        configuration: Deck.Configuration = Deck.Configuration(),
        memories: [String: PanelMemory] = [:],
        pingKeys: [String: String] = [:],
        appending appended: [Panel] = []
    ) -> Deck {
        var configuration = configuration
        configuration.toastDuration = toastDuration
        configuration.toastPosition = toastPosition
        configuration.flapping = flapping
        configuration.incidentTargets = incidents.targets(runner: CommandRunner())
        return Deck(title, configuration: configuration, panels: makePanels(pingKeys: pingKeys) + appended,
                    memories: memories, maintenance: maintenance.map(\.window), status: status)
    }

    /// Reloads each file panel of `deck` that watches its file whenever the file changes, until
    /// the calling task is cancelled. Run it beside the deck, e.g. in a task ended on shutdown.
    ///
    /// A reload is the deck's `refresh`: it joins a load in flight, toasts only a transition, and
    /// a panel pinned by a debug state ignores it (the next change asks again).
    ///
    /// One watcher per file, however many panels show it: 10,000 panels of one status file check
    /// it twice a second, not 20,000 times.
    public func watchFiles(reloading deck: Deck) async {
        var panelsOfFile: [String: [String]] = [:]
        for panel in panels {
            guard case .file(let source) = panel.source, source.watch else { continue }
            panelsOfFile[source.path, default: []].append(panel.id)
        }
        await withTaskGroup(of: Void.self) { group in
            for (path, ids) in panelsOfFile {
                group.addTask {
                    for await _ in FileWatcher(path: path).changes() {
                        for id in ids { try? await deck.refresh(panel: id) }
                    }
                }
            }
        }
    }
}

// MARK: - Problems

/// Why a deck file cannot be used: every problem found in it, not only the first.
public struct DeckFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// In the order of the file's lines.
    public var problems: [DeckFileProblem]

    /// An error reporting `problems`, in the given order.
    public init(problems: [DeckFileProblem]) {
        self.problems = problems
    }

    /// One problem a line, ready for standard error.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// One thing wrong with a deck file, located by key path and line.
public struct DeckFileProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named when loaded.
    public var file: String
    /// The line (from 1), when known.
    public var line: Int?
    /// The key path, such as `panels[1].http.url`; empty for the file as a whole.
    public var path: String
    /// What is wrong, such as "must be an http or https URL".
    public var message: String

    /// A problem at `line` of `file`, under key path `path`.
    public init(file: String, line: Int?, path: String, message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }

    /// `stack.yaml:7: panels[1].http.url: must be an http or https URL`.
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return path.isEmpty ? "\(location): \(message)" : "\(location): \(path): \(message)"
    }
}

// MARK: - The reader

/// What reading one deck file needs everywhere: its name, folder and environment, and the problems
/// found so far. Reading goes on after a problem, so that all of them are reported at once.
final class DeckFileReader {
    let file: String
    /// Relative paths in the file are relative to this folder.
    let folder: String
    let environment: [String: String]
    /// With the column of each, to order problems of one line.
    private var found: [(problem: DeckFileProblem, column: Int)] = []
    /// The time zones read so far, by name: a deck of thousands of heartbeats in one zone reads
    /// its file once.
    private var zones: [String: Result<ZoneRules, ZoneRules.LoadError>] = [:]
    /// The machine's own zone, read once a file, when a heartbeat names none.
    private(set) lazy var localZone = ZoneRules.local(environment: environment)

    init(file: String, folder: String, environment: [String: String]) {
        self.file = file
        self.folder = folder
        self.environment = environment
    }

    func report(_ message: String, at path: ConfigPath, mark: YAMLMark?) {
        let problem = DeckFileProblem(file: file, line: mark?.line, path: path.description, message: message)
        found.append((problem, mark?.column ?? 0))
    }

    var hasProblems: Bool { !found.isEmpty }

    /// The zone `name` of the tz database, read once a file.
    func zone(named name: String) -> Result<ZoneRules, ZoneRules.LoadError> {
        if let read = zones[name] { return read }
        let read = Result { () throws(ZoneRules.LoadError) in try ZoneRules.named(name) }
        zones[name] = read
        return read
    }

    /// `path` made absolute: `~` is the home folder (`HOME`), and a relative path starts at the file's folder.
    func resolve(_ path: String) -> String {
        URL(fileURLWithPath: expandingTilde(in: path), relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
            .standardizedFileURL.path
    }

    /// `path` with a leading `~` or `~/` made the home folder; the path as it is without a `HOME`.
    private func expandingTilde(in path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }

    /// The problems in the file's order, file-wide ones first.
    var problems: [DeckFileProblem] {
        found.enumerated()
            .sorted { ($0.element.problem.line ?? 0, $0.element.column, $0.offset)
                < ($1.element.problem.line ?? 0, $1.element.column, $1.offset) }
            .map(\.element.problem)
    }
}

extension DeckFileReader {
    /// The document of `text` with its line marks; nil (and a problem) when it is empty or not YAML.
    func compose(_ text: String) -> YAMLNode? {
        do {
            guard let node = try YAMLComposer.compose(text) else {
                report("the file is empty; a deck file needs at least a list of panels", at: .root, mark: nil)
                return nil
            }
            return node
        } catch {
            for (mark, message) in Self.describe(error) {
                report(message, at: .root, mark: mark)
            }
            return nil
        }
    }

    /// One problem per thing wrong: each key given again is reported where it is given again.
    private static func describe(_ error: YAMLError) -> [(mark: YAMLMark?, message: String)] {
        switch error {
        case .syntax(let problem, let mark, let context):
            let within = context.map { " (\($0.text) on line \($0.mark.line))" } ?? ""
            return [(mark, "YAML syntax: \(problem)\(within)")]
        case .duplicateKeys(let repeats):
            return repeats.map { ($0.mark, "the key \($0.key) is given again (first on line \($0.first.line))") }
        }
    }
}
