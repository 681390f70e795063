#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file StateDeck writes in its data folder (`--data`): the history and SQLite's companions of
/// it, the folder's lock, the ping keys. Each is its owner's alone (mode 0600), whatever the umask
/// or the folder's mode: the ping keys let anyone forge a job's results, and the history holds
/// everything the dashboard showed. A file found wider (made by an older StateDeck, or by hand) is
/// narrowed when StateDeck opens it.
public enum DataFolderFile {
    public static let mode: mode_t = 0o600

    /// Sets the mode of the file open at `descriptor` to 0600 unless it is already; the reason
    /// it could not, nil when it is 0600.
    public static func restrict(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return String(cString: strerror(errno)) }
        guard status.st_mode & 0o7777 != mode else { return nil }
        return fchmod(descriptor, mode) == 0 ? nil : String(cString: strerror(errno))
    }

    /// ``restrict(_:)`` for the file at `path`, not following a link: nil when it is missing, a
    /// link or not a regular file (each its opener's to refuse), or once it is 0600.
    public static func restrict(path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT || errno == ELOOP ? nil : String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return restrict(descriptor)
    }

    /// Makes the regular file `path` with mode 0600 when it is missing, so that what writes it
    /// after (SQLite, which makes files 0644 less the umask) finds it private; nil once it exists,
    /// else the reason.
    public static func create(path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return errno == EEXIST ? nil : String(cString: strerror(errno)) }
        defer { close(descriptor) }
        return restrict(descriptor)
    }
}
