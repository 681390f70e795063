import StateDeck
import Threading

/// The line panels' command loads wait in: at most `limit` of them run at once, the others start
/// in the order they came, and none is dropped. A load waiting its turn shows its panel as
/// queued, and its timeout does not run (``LoadProgress``); a cancelled one leaves the line.
///
/// Recovery options and item actions do not wait in it: a person asked for them and is waiting.
public final class CommandLoadQueue: Sendable, Hashable {
    /// Commands loading at once by default: enough that a slow command (a `docker ps` against a
    /// busy daemon) does not hold the others up, few enough that a deck of hundreds of command
    /// panels starting together does not fork hundreds of processes at once on a small machine.
    public static let defaultLimit = 8
    /// The line every command source waits in unless given its own.
    public static let shared = CommandLoadQueue(limit: defaultLimit)

    private let turns: AdmissionQueue<String>
    /// The one line all its loads wait in.
    private static let line = "commands"

    /// A line letting `limit` commands run at once.
    public init(limit: Int) {
        turns = AdmissionQueue(limitPerKey: limit, totalLimit: limit)
    }

    /// Runs `load` once its turn comes.
    ///
    /// - Throws: what `load` throws, or `CancellationError` when cancelled while waiting.
    func run<Value>(_ load: () async throws -> Value) async throws -> Value {
        try await turns.enter(Self.line, waiting: LoadProgress.waitingForTurn)
        defer { turns.leave(Self.line) }
        return try await load()
    }

    public static func == (lhs: CommandLoadQueue, rhs: CommandLoadQueue) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
