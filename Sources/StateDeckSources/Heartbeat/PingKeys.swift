import FoundationEssentials
import StateDeckHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The ping keys StateDeck makes for the heartbeat panels whose deck file sets none: each a random
/// secret made once and kept in `ping-keys.json` in the data folder, readable by its owner only
/// (``DataFolderFile``: a file found wider is narrowed as it is read), so that a job's URL holds
/// across restarts. Without a data folder they hold for the run.
public struct PingKeys: Sendable {
    /// The file's name in the data folder.
    public static let fileName = "ping-keys.json"

    /// The file, nil without a data folder.
    public let path: String?
    /// Each panel's key, by panel id.
    public private(set) var keys: [String: String]

    /// Why the keys could not be read or kept: the file and what went wrong.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The keys kept in `folder` (none yet when it holds no file), or none kept without a folder.
    public init(folder: String?) throws(Failure) {
        path = folder.map { $0 + "/" + Self.fileName }
        keys = [:]
        guard let path else { return }
        guard let bytes = try Self.contents(of: path) else { return }
        guard let kept = try? JSONDecoder().decode([String: String].self, from: Data(bytes)),
              kept.values.allSatisfy(HeartbeatSource.isKey) else {
            throw Failure(path: path, reason: "not a JSON object of panel ids and ping keys (move it away, and new keys are made)")
        }
        keys = kept
    }

    /// The key of each panel in `panels`, making and keeping those it lacks.
    public mutating func keys(for panels: [String]) throws(Failure) -> [String: String] {
        let missing = panels.filter { keys[$0] == nil }
        if !missing.isEmpty {
            for panel in missing { keys[panel] = Self.makeKey() }
            try save()
        }
        return keys.filter { panels.contains($0.key) }
    }

    /// The key of panel `panel`, made and kept if it has none yet.
    public mutating func key(for panel: String) throws(Failure) -> String {
        if let key = keys[panel] { return key }
        let key = Self.makeKey()
        keys[panel] = key
        try save()
        return key
    }

    /// 32 letters and digits from the system's random source: about 190 bits.
    static func makeKey() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<32).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// The file's bytes, nil when there is none. A symbolic link or anything but a regular file
    /// is refused rather than followed.
    private static func contents(of path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(path: path, reason: "cannot be read: \(String(errno: errno))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 1 << 24 else {
            throw Failure(path: path, reason: "is not a regular file of ping keys")
        }
        if let reason = DataFolderFile.restrict(descriptor) {
            throw Failure(path: path, reason: "its mode cannot be made 0600 (\(reason))")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        guard bytes.isEmpty || read(descriptor, &bytes, bytes.count) == bytes.count else {
            throw Failure(path: path, reason: "cannot be read: \(String(errno: errno))")
        }
        return bytes
    }

    /// Writes every key to a new file beside the old one, then puts it in its place: a crash
    /// leaves the old file or the new one, never half of either.
    private func save() throws(Failure) {
        guard let path else { return }
        let temporary = path + ".new"
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            bytes = Array(try encoder.encode(keys))
        } catch {
            throw Failure(path: path, reason: "cannot be written: \(error)")
        }
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(path: path, reason: "cannot be written: \(String(errno: errno))")
        }
        // 0600 whatever the umask: open's mode is narrowed by it, never widened.
        let restricted = DataFolderFile.restrict(descriptor) == nil
        let written = restricted ? write(descriptor, bytes, bytes.count) : -1
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            let reason = String(errno: errno)
            unlink(temporary)
            throw Failure(path: path, reason: "cannot be written: \(reason)")
        }
    }
}
