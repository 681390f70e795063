import StateDeck
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a file: JSON (Info itself, fields or items) or text. The deck reloads the panel when the
/// file changes (see `FileWatcher`).
public struct FileSource: Sendable, Hashable {
    /// Only the beginning of a longer file is read.
    public static let readLimit = 1 << 20

    /// An absolute path.
    public var path: String
    /// `auto` reads a `.json` file as JSON (so broken JSON is an error), anything else as JSON
    /// when it looks like it.
    public var format: OutputFormat
    /// Whether the panel reloads when the file changes.
    public var watch: Bool

    /// A source reading the file at `path` (absolute) as `format`.
    public init(path: String, format: OutputFormat = .auto, watch: Bool = true) {
        self.path = path
        self.format = format
        self.watch = watch
    }

    /// Reads the file once, on a thread of its own that a cancelled load abandons (a read of a
    /// stuck network file system costs only that thread); throws a `PanelError`: `notFound` when
    /// it is missing, `invalidResponse` for a folder or a special file.
    public func load() async throws -> Info {
        let text = try await DetachedThread.value { [self] in Result { () throws(PanelError) in try contents() } }.get()
        let isJSONFile = format == .auto && path.lowercased().hasSuffix(".json")
        return try Info(output: text, format: isJSONFile ? .json : format)
    }

    /// The file's first `readLimit` bytes as text. Opened without blocking, so a named pipe with
    /// no writer cannot hold the thread, and refused unless it is a regular file: a pipe, socket
    /// or device has no content to show, only a wait or an endless stream.
    private func contents() throws(PanelError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        if let kind = Self.specialKind(info.st_mode) {
            throw PanelError(.invalidResponse, failureReason: "\(path) is \(kind), not a file.",
                             recoverySuggestion: "Point the panel at a regular file.")
        }
        var readError: Int32 = 0
        // Uninitialized: only the pages the file fills are touched.
        let bytes = [UInt8](unsafeUninitializedCapacity: Self.readLimit) { buffer, count in
            while count < buffer.count {
                let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if got > 0 {
                    count += got
                } else if got == 0 || errno != EINTR {
                    readError = got == 0 ? 0 : errno
                    return
                }
            }
        }
        guard readError == 0 else { throw failure(readError) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a file that is not a regular file is, in words; nil for a regular file.
    private static func specialKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a special file"
        }
    }

    private func failure(_ code: Int32) -> PanelError {
        switch code {
        case ENOENT, ENOTDIR: PanelError(.notFound, failureReason: "There is no file at \(path).")
        case ENXIO: PanelError(.invalidResponse, failureReason: "\(path) is a socket, not a file.",
                               recoverySuggestion: "Point the panel at a regular file.")
        case EACCES, EPERM: PanelError(.unauthorized, failureReason: "StateDeck may not read \(path).")
        default: PanelError(.unknown, failureReason: "\(path) could not be read.", detail: String(errno: code))
        }
    }
}
