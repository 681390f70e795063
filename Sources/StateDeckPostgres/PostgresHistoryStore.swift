import FoundationEssentials
import Postgres
import StateDeck
import StateDeckHistory

/// The history store in a PostgreSQL database (its schema `statedeck`, see ``PostgresSchema``),
/// for a history kept off the machine or shared, kept by a ``HistoryKeeper`` as the SQLite
/// store's is.
///
/// When the server cannot be reached or restarts, the changes stay in memory (up to
/// `unsavedLimit`), `trouble` names the server, and the next save makes a new session once its
/// wait is over (`reconnectDelays`); saving resumes by itself once it succeeds.
public final class PostgresHistoryStore: KeptHistoryStore {
    /// How the store saves and what it keeps: the keeper's settings, and the sessions'.
    @dynamicMemberLookup
    public struct Configuration: Sendable {
        public var keeping: HistoryKeeper.Configuration = {
            var keeping = HistoryKeeper.Configuration()
            // A server gone silent would hold the last save for seconds: stopping finishes within 2 s.
            keeping.closeLimit = .milliseconds(1_500)
            return keeping
        }()
        /// The wait after the first failed attempt to reconnect, doubled after each until the
        /// longest.
        public var reconnectDelays: ClosedRange<Duration> = .milliseconds(500)...(.seconds(10))

        public init() {}

        public subscript<Value>(dynamicMember setting: WritableKeyPath<HistoryKeeper.Configuration, Value>) -> Value {
            get { keeping[keyPath: setting] }
            set { keeping[keyPath: setting] = newValue }
        }
    }

    public let address: PostgresStoreAddress
    public let keeper: HistoryKeeper

    /// Connects to `url` (a `postgres://` URL without a password: libpq takes it from
    /// `PGPASSWORD` or a password file), makes or upgrades StateDeck's tables, and reads what
    /// the store keeps in memory.
    ///
    /// - Throws: ``PostgresStoreError``, naming the server and what to do, when the URL is not
    ///   one, holds a password, the server cannot be reached or refuses, or a newer StateDeck
    ///   wrote the tables.
    public init(url: String, configuration: Configuration = Configuration()) throws(PostgresStoreError) {
        address = try PostgresStoreAddress(url)
        let server = address.server
        let session: PostgresConnection
        do {
            session = try PostgresConnection(address.url)
        } catch {
            throw .unreachable(server: server, reason: error.message)
        }
        try PostgresSchema.migrate(session, server: server)
        let database = PostgresHistoryDatabase(address: address, session: session,
                                               reconnectDelays: configuration.reconnectDelays)
        do {
            keeper = try HistoryKeeper(database: database, configuration: configuration.keeping)
        } catch {
            throw error.kind == .unreachable
                ? .unreachable(server: server, reason: error.detail ?? error.title)
                : .refused(server: server, reason: error.detail ?? error.title)
        }
    }
}
