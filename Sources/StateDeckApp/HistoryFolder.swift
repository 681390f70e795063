import FoundationEssentials
import StateDeckHistory
import StateDeckSQLite

/// Where a served deck keeps its history (`--data`).
public enum HistoryFolder {
    /// The folder for `option` (`none` for no history) serving `deckFile` (nil for the demo):
    /// by default `.statedeck` beside the deck file, so the history moves, is backed up and is
    /// deleted with the deck; for the demo, `$XDG_STATE_HOME/statedeck/demo` (or
    /// `~/.local/state/statedeck/demo`).
    public static func path(option: String?, deckFile: String?,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let option { return option == "none" ? nil : option }
        if let deckFile {
            let folder = URL(fileURLWithPath: deckFile).deletingLastPathComponent().path
            return folder + "/.statedeck"
        }
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "/tmp") + "/.local/state"
        return state + "/statedeck/demo"
    }

    /// Opens the history in `folder`, making the folder and its parents as needed.
    ///
    /// - Throws: ``HistoryOpenError``, whose description names the file and what to do.
    public static func open(_ folder: String, retention: HistoryRetention) throws(HistoryOpenError) -> SQLiteHistoryStore {
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateFolder(path: parent, reason: "\(error)")
        }
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.retention = retention
        return try SQLiteHistoryStore(folder: folder, configuration: configuration)
    }
}
