/// Why a history file cannot be used. The file is left as it was found.
public enum HistoryOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not a StateDeck history: not SQLite, another program's database, or damaged.
    case notHistory(path: String, reason: String)
    case newerSchema(path: String, version: Int, supported: Int)
    /// Another process keeps its history in the same folder.
    case inUse(folder: String, owner: String)
    /// The history file, one of its companions (`-wal`, `-shm`, `-journal`) or the lock file is
    /// a symbolic link: two folders could write one database, or SQLite's log land elsewhere.
    case symbolicLink(path: String, target: String)
    /// The history file has more than one name: another folder may hold the same file.
    case hardLinks(path: String, count: Int)
    case cannotCreateFolder(path: String, reason: String)
    case cannotCreateLock(path: String, reason: String)
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
        case .symbolicLink(let path, let target):
            "\(path) is a symbolic link to \(target). StateDeck keeps its history only in files of the --data folder's "
                + "own, so that two folders never write one database; both were left untouched. Put the file itself in "
                + "place of the link, or give --data the folder it is in."
        case .hardLinks(let path, let count):
            "\(path) has \(count) hard links: another folder may hold the same file, and two StateDecks would write "
                + "one database. It was left untouched; give this folder a copy of its own (cp, then delete the other "
                + "names), or give --data another folder."
        case .cannotCreateFolder(let path, let reason):
            Self.cannotCreate("the history folder", path, reason)
        case .cannotCreateLock(let path, let reason):
            Self.cannotCreate("the lock file", path, reason)
        case .cannotCreate(let path, let reason):
            Self.cannotCreate("the history file", path, reason)
        }
    }

    private static func cannotCreate(_ what: String, _ path: String, _ reason: String) -> String {
        "cannot create \(what) \(path): \(reason). Give --data a folder StateDeck can write, or --data none."
    }
}
