import StateDeckApp
import StateDeckServer
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
        let access = options.access.map { ($0, Launcher.loadAccessFile($0)) }
        print("\(options.file): \(summary(of: file)), OK")
        if let (path, list) = access { print("\(path): \(summary(of: list)), OK") }
        PingURLs.print(pingLines(of: file, keptIn: HistoryFolder.path(option: options.data, deckFile: options.file),
                                 url: options.url))
        exit(0)
    }

    /// A line per heartbeat panel of `file` (``PingURLs/lines(of:url:)``), with the keys kept in
    /// `folder`.
    static func pingLines(of file: DeckFile, keptIn folder: String?, url: String) -> [String] {
        let kept = (try? PingKeys(folder: folder))?.keys ?? [:]
        return PingURLs.lines(of: file.makePanels(pingKeys: kept), url: url)
    }

    /// "3 panels in 2 groups", or "1 panel" when no panel has a group; then the maintenance
    /// windows, when the file declares some: "3 panels, 2 maintenance windows"; then its status
    /// page's lines, when it has one: "3 panels, a status page of 2 lines".
    static func summary(of file: DeckFile) -> String {
        let panels = counted(file.panels.count, "panel")
        let groups = Set(file.panels.compactMap(\.group?.id)).count
        let windows = file.maintenance.isEmpty ? "" : ", " + counted(file.maintenance.count, "maintenance window")
        let status = file.status.map { ", a status page of " + counted($0.components.count, "line") } ?? ""
        return (groups == 0 ? panels : "\(panels) in \(counted(groups, "group"))") + windows + status
    }

    /// "3 callers: 1 designer, 2 viewers", the roles from the most trusted.
    static func summary(of list: AccessList) -> String {
        let roles = AccessRole.allCases.reversed().compactMap { role in
            let count = list.entries.count { $0.role == role }
            return count == 0 ? nil : counted(count, role.rawValue)
        }
        return counted(list.entries.count, "caller") + ": " + roles.joined(separator: ", ")
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
