import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file that holds secrets or what guards them (a token file, an access file): read whole as
/// text, and only when it is a regular file that its owner alone may read or write (mode 0600),
/// since one that others can read guards nothing.
public enum PrivateFile {
    /// Why the file cannot be used; the caller names the file in its own words.
    public enum Problem: Error, Sendable, Equatable {
        /// `stat` or the read failed, for this reason.
        case unreadable(String)
        /// A folder, named pipe or device: a pipe or a device would block the read, or never end it.
        case notAFile
        /// Others may read or write it; the file's permission bits.
        case tooOpen(mode_t)
        case notUTF8
    }

    /// The text of the file at `path`.
    public static func text(at path: String) throws(Problem) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAFile }
        guard status.st_mode & 0o077 == 0 else { throw .tooOpen(status.st_mode & 0o777) }
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) else { throw .unreadable("the read failed") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        return text
    }
}
