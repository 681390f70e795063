import StateDeck
import Threading

/// Runs dns sources' queries, at most `limit` at once, each on a thread of its own.
///
/// A query blocks its thread until an answer comes or its timeout ends (seconds, against a server
/// that does not answer), so it never runs on Swift's shared pool, where two such queries would
/// hold up every panel on a two-core machine. A few threads at most, not one per query: a deck of
/// hundreds of dns panels refreshing together would otherwise start hundreds of threads. A query
/// waiting for its turn shows its panel as queued, and its timeout does not run meanwhile.
enum DNSQueries {
    /// Queries running at once; the rest wait in line.
    static let limit = 4

    private static let turns = AdmissionQueue<String>(limitPerKey: limit, totalLimit: limit)
    /// The one line all queries wait in.
    private static let line = "dns"

    /// What `query` came to. A cancelled caller returns at once; its query ends alone, by its
    /// timeout at the latest, and only then frees its place.
    static func run(_ query: ResolverQuery) async throws(CancellationError) -> DNSOutcome {
        try await turns.runDetached(line, waiting: LoadProgress.waitingForTurn) { query.run() }
    }
}
