import Threading

/// Reports when a file changes: appears, disappears, or gets another size, modification time or
/// inode (an editor's save by rename).
///
/// It polls the file's metadata (one `stat` every `interval`) rather than using inotify: polling
/// works on every platform, follows a file replaced by rename or a folder created later, and costs
/// nothing measurable at two checks a second. The task sleeps between checks on the alarm clock,
/// which sets a deadline without waking a thread; nothing spins.
public struct FileWatcher: Sendable {
    /// The file watched; it need not exist.
    public var path: String
    /// The time between two checks.
    public var interval: Duration

    /// A watcher of `path`, checking every `interval`.
    public init(path: String, interval: Duration = .milliseconds(500)) {
        self.path = path
        self.interval = interval
    }

    /// An element each time the file changed since the previous check, the first check comparing
    /// with the file as it is when this is called; it ends when the task iterating it is cancelled.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let first = FileStamp(path: path)
        let task = Task { [path, interval] in
            var last = first
            while (try? await AlarmClock().sleep(for: interval)) != nil {
                let current = FileStamp(path: path)
                if current != last { continuation.yield() }
                last = current
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
