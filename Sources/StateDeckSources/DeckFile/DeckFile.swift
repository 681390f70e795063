import FoundationEssentials
import StateDeck

/// A deck declared in a YAML or JSON file (the `--config` of the command line): its title and
/// panels, validated as a whole. See `examples/stack.yaml` for every key.
public struct DeckFile: Sendable, Hashable {
    /// The deck's heading ("StateDeck" when the file has none).
    public var title: String
    /// In the file's order, ids unique.
    public var panels: [PanelSpec]
    /// How long toasts stay (`toasts.duration`, 4 s by default).
    public var toastDuration: Duration
    /// Where the page draws toasts (`toasts.position`, top by default).
    public var toastPosition: Toast.Position

    /// A deck file's content, built in code.
    public init(
        title: String,
        panels: [PanelSpec],
        toastDuration: Duration = Deck.Configuration().toastDuration,
        toastPosition: Toast.Position = Deck.Configuration().toastPosition
    ) {
        self.title = title
        self.panels = panels
        self.toastDuration = toastDuration
        self.toastPosition = toastPosition
    }

    /// Reads and validates the file at `path`; `${VAR}` references take their values from
    /// `environment`, and relative paths start at the file's folder.
    ///
    /// - Throws: every problem found, each with the file, the line and the key path.
    public static func load(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DeckFileError) -> DeckFile {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let reason = (error as? CocoaError)?.code == .fileReadNoSuchFile ? "no such file" : "cannot be read"
            throw DeckFileError(problems: [DeckFileProblem(file: path, line: nil, path: "", message: reason)])
        }
        return try parse(text, file: path, folder: url.deletingLastPathComponent().path, environment: environment)
    }

    /// Validates deck file `text`, named `file` in the problems, whose relative paths start at `folder`.
    public static func parse(
        _ text: String,
        file: String,
        folder: String,
        environment: [String: String] = [:]
    ) throws(DeckFileError) -> DeckFile {
        let reader = DeckFileReader(file: file, folder: folder, environment: environment)
        let deck = reader.compose(text).flatMap { DeckFile(reading: ConfigNode(node: $0, path: .root, reader: reader)) }
        guard let deck, !reader.hasProblems else {
            throw DeckFileError(problems: reader.problems)
        }
        return deck
    }
}
