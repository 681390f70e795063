/// Why a history file cannot be used. The file is left as it was found.
public enum HistoryOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not a StateDeck history: not SQLite, another program's database, or damaged.
    case notHistory(path: String, reason: String)
    case newerSchema(path: String, version: Int, supported: Int)
    /// Another process keeps its history in the same folder.
    case inUse(folder: String, owner: String)
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the history file \(path): \(reason). Fix its permissions, or give --data another folder."
        case .notHistory(let path, let reason):
            "\(path) is not a StateDeck history: \(reason). It was left untouched; move it away to start a new "
                + "history there, or give --data another folder."
        case .newerSchema(let path, let version, let supported):
            "\(path) was written by a newer StateDeck (history schema \(version); this one reads up to \(supported)). "
                + "It was left untouched; run the newer StateDeck, or give --data another folder."
        case .inUse(let folder, let owner):
            "the history folder \(folder) is in use by another StateDeck (\(owner)). Two processes never write one "
                + "history: stop the other, or give this one its own --data folder."
        case .cannotCreate(let path, let reason):
            "cannot create the history file \(path): \(reason). Give --data a folder StateDeck can write, or --data none."
        }
    }
}
