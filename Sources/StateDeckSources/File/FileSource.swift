import Foundation
import StateDeck

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
        let text = try read()
        let isJSONFile = format == .auto && path.lowercased().hasSuffix(".json")
        return try Info(output: text, format: isJSONFile ? .json : format)
    }

    /// A watcher of the file, for reloading the panel when it changes.
    public func watcher() -> FileWatcher {
        FileWatcher(path: path)
    }

    private func read() throws(PanelError) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PanelError(.notFound, failureReason: "There is no file at \(path).")
        }
        guard !isFolder.boolValue else {
            throw PanelError(.invalidResponse, failureReason: "\(path) is a folder, not a file.")
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return String(decoding: try handle.read(upToCount: Self.readLimit) ?? Data(), as: UTF8.self)
        } catch CocoaError.fileReadNoPermission {
            throw PanelError(.unauthorized, failureReason: "StateDeck may not read \(path).")
        } catch {
            throw PanelError(.unknown, failureReason: "\(path) could not be read.", detail: error.localizedDescription)
        }
    }
}
