import StateDeck

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

    /// Reads the file once; throws a `PanelError`: `notFound` when it is missing.
    public func load() async throws -> Info {
        let text = try contents()
        let isJSONFile = format == .auto && path.lowercased().hasSuffix(".json")
        return try Info(output: text, format: isJSONFile ? .json : format)
    }

    /// A watcher of the file, for reloading the panel when it changes.
    public func watcher() -> FileWatcher {
        FileWatcher(path: path)
    }

    private func contents() throws(PanelError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw PanelError(.invalidResponse, failureReason: "\(path) is a folder, not a file.")
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

    private func failure(_ code: Int32) -> PanelError {
        switch code {
        case ENOENT, ENOTDIR: PanelError(.notFound, failureReason: "There is no file at \(path).")
        case EACCES, EPERM: PanelError(.unauthorized, failureReason: "StateDeck may not read \(path).")
        default: PanelError(.unknown, failureReason: "\(path) could not be read.", detail: String(cString: strerror(code)))
        }
    }
}
