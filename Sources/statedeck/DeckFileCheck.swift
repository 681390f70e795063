import StateDeckApp
import StateDeckSources

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `statedeck check FILE`: reads the deck file the way start-up does, and says so.
enum DeckFileCheck {
    /// Exits 0 after a one-line summary on standard output; a file with problems exits 2 with
    /// start-up's messages (`Launcher.loadDeckFile`).
    static func run(_ options: CheckOptions) -> Never {
        let file = Launcher.loadDeckFile(options.file)
        print("\(options.file): \(summary(of: file)), OK")
        let heartbeats = pingLines(of: file, keptIn: HistoryFolder.path(option: options.data, deckFile: options.file),
                                   url: options.url)
        if !heartbeats.isEmpty {
            print("Heartbeats: each job pings its URL (curl -fsS -m 10 --retry 3 URL), /start as it begins,")
            print("and /fail or /EXIT-STATUS as it ends badly:")
            heartbeats.forEach { print("  " + $0) }
        }
        exit(0)
    }

    /// A line per heartbeat panel: its id, its ping URL and what it expects. A key StateDeck has
    /// not made yet is said to come at the first start.
    static func pingLines(of file: DeckFile, keptIn folder: String?, url: String) -> [String] {
        let kept = (try? PingKeys(folder: folder))?.keys ?? [:]
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        return file.makePanels(pingKeys: kept).compactMap { panel in
            guard let heartbeat = panel.heartbeat else { return nil }
            let grace = "grace \(heartbeat.grace.lengthText)"
            guard let path = heartbeat.pingPath else {
                return "\(panel.id): its key is made when statedeck first serves this deck (\(heartbeat.expects), \(grace))"
            }
            return "\(panel.id): \(base)\(path) (\(heartbeat.expects), \(grace))"
        }
    }

    /// "3 panels in 2 groups", or "1 panel" when no panel has a group; then the maintenance
    /// windows, when the file declares some: "3 panels, 2 maintenance windows".
    static func summary(of file: DeckFile) -> String {
        let panels = counted(file.panels.count, "panel")
        let groups = Set(file.panels.compactMap(\.group?.id)).count
        let windows = file.maintenance.isEmpty ? "" : ", " + counted(file.maintenance.count, "maintenance window")
        return (groups == 0 ? panels : "\(panels) in \(counted(groups, "group"))") + windows
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
