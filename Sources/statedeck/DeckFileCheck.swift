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
    static func run(_ path: String) -> Never {
        let file = Launcher.loadDeckFile(path)
        print("\(path): \(summary(of: file)), OK")
        exit(0)
    }

    /// "3 panels in 2 groups", or "1 panel" when no panel has a group.
    static func summary(of file: DeckFile) -> String {
        let panels = counted(file.panels.count, "panel")
        let groups = Set(file.panels.compactMap(\.group?.id)).count
        return groups == 0 ? panels : "\(panels) in \(counted(groups, "group"))"
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
