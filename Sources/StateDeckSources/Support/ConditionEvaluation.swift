import StateDeck
import Threading

/// Judges sources' answers against their conditions (an http answer's patterns and JSON, a tcp
/// banner's pattern), at most `limit` answers at once, each on a thread of its own.
///
/// A pattern may take a core for a fifth of a second before its step limit ends it
/// (``RegularExpression``), and a pointer parses up to 1 MiB of JSON: on Swift's shared pool, two
/// such at once hold up every panel, ping and retry of a two-core machine. A few threads at most,
/// not one per answer: a thousand panels whose patterns all give up would start a thousand. An
/// answer waiting for its turn shows its panel as queued, and its timeout does not run meanwhile.
/// Once its turn came the panel's timeout ends the load, whatever the evaluation does: the caller
/// returns at once when cancelled, and its evaluation ends alone, by its limits at the latest,
/// and only then frees its place.
enum ConditionEvaluation {
    /// Answers judged at once; the rest wait in line. As many as a small machine has cores: the
    /// work only computes.
    static let limit = 2

    private static let turns = AdmissionQueue<String>(limitPerKey: limit, totalLimit: limit)
    /// The one line all answers wait in.
    private static let line = "conditions"

    /// What `evaluation` came to.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (the panel's timeout, its stop).
    static func run<Value: Sendable>(_ evaluation: @escaping @Sendable () -> Value) async throws(CancellationError) -> Value {
        try await turns.runDetached(line, waiting: LoadProgress.waitingForTurn, evaluation)
    }
}
