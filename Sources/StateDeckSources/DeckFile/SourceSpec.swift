import StateDeck

/// A panel's one source of info.
public enum SourceSpec: Sendable, Hashable {
    case http(HTTPSource)
    case tcp(TCPSource)
    case command(CommandSource)
    case file(FileSource)

    /// Loads once; throws a `PanelError`.
    public func load() async throws -> Info {
        switch self {
        case .http(let source): try await source.load()
        case .tcp(let source): try await source.load()
        case .command(let source): try await source.load()
        case .file(let source): try await source.load()
        }
    }

    /// The source's own limit, nil for a file (read at once).
    public var timeout: Duration? {
        switch self {
        case .http(let source): source.timeout
        case .tcp(let source): source.timeout
        case .command(let source): source.command.timeout
        case .file: nil
        }
    }
}
