import FoundationEssentials
import Locking
import Postgres
import StateDeck
import StateDeckHistory

/// The history store in a PostgreSQL database (its schema `statedeck`, see ``PostgresSchema``),
/// for a history kept off the machine or shared.
///
/// It behaves as the SQLite store does: `record(_:)` only queues a change, and one thread of the
/// store's own (``HistoryWriter``, `history-writer`) saves the queue in one transaction every
/// `flushInterval` (1 s) or as soon as `batchSize` changes wait. When the server cannot be
/// reached or restarts, the changes stay queued (up to `unsavedLimit`), `trouble` names the
/// server, and the writer makes a new session, waiting longer after each failed attempt
/// (`reconnectDelays`); saving resumes by itself once it succeeds.
public final class PostgresHistoryStore: WriterBackedHistoryStore {
    /// How the store saves and what it keeps.
    public struct Configuration: Sendable {
        public var retention = HistoryRetention()
        /// The longest a change waits to be saved.
        public var flushInterval: Duration = .seconds(1)
        /// Changes that make the writer save at once.
        public var batchSize = 1_000
        /// The most changes and tallies kept in memory while saving fails; the oldest go first.
        public var unsavedLimit = 100_000
        /// The wait after the first failed attempt to reconnect, doubled after each until the
        /// longest. The writer tries at its next save once the wait is over.
        public var reconnectDelays: ClosedRange<Duration> = .milliseconds(500)...(.seconds(10))
        /// The longest `close()` waits for the writer's last save (a server gone silent would
        /// hold it for seconds): stopping finishes within 2 s.
        public var closeLimit: Duration = .milliseconds(1_500)
        /// The clocks buckets end and uptimes are counted by.
        public var clock = HistoryClock.system
        /// The wall clock alone, trusted to go forward only as time passes (a test's virtual clock).
        public var now: @Sendable () -> Date {
            get { clock.wall }
            set { clock = HistoryClock(wall: newValue) }
        }
        /// Whether the store's own thread saves; off, only `flush()` does.
        public var startsWriter = true
        /// Whether the store waits for `setWriting(true)` before it counts time or writes
        /// anything: a member of a cluster, where only the process running the deck writes the
        /// history and the others answer from what it stored.
        public var waitsToWrite = false

        public init() {}
    }

    public let address: PostgresStoreAddress
    public let configuration: Configuration
    let state: Locked<PostgresStoreState>
    public let writer: HistoryWriter
    public let lastEventID: UInt64
    /// Whether this process writes the history now (``setWriting(_:)``).
    private let writing: Locked<Bool>

    /// Connects to `url` (a `postgres://` URL without a password: libpq takes it from
    /// `PGPASSWORD` or a password file), makes or upgrades StateDeck's tables, and reads what
    /// the store keeps in memory.
    ///
    /// - Throws: ``PostgresStoreError``, naming the server and what to do, when the URL is not
    ///   one, holds a password, the server cannot be reached or refuses, or a newer StateDeck
    ///   wrote the tables.
    public init(url: String, configuration: Configuration = Configuration()) throws(PostgresStoreError) {
        address = try PostgresStoreAddress(url)
        self.configuration = configuration
        writer = HistoryWriter(flushInterval: configuration.flushInterval, batchSize: configuration.batchSize)
        let server = address.server
        let session: PostgresConnection
        do {
            session = try PostgresConnection(address.url)
        } catch {
            throw .unreachable(server: server, reason: error.message)
        }
        try PostgresSchema.migrate(session, server: server)
        writing = Locked(!configuration.waitsToWrite)
        do {
            state = Locked(try PostgresStoreState(session: session, server: server, retention: configuration.retention,
                                                  now: configuration.now(), running: !configuration.waitsToWrite))
        } catch {
            throw error.kind == .connection
                ? .unreachable(server: server, reason: error.message)
                : .refused(server: server, reason: error.message)
        }
        lastEventID = state.withLock { $0.history.storedEventID }
        writer.start(threaded: configuration.startsWriter) { [self] in flush() }
    }

    /// Saves what waits, then stops the writer. Later changes are dropped. The session ends with
    /// the store.
    public func close() {
        writer.close(waitingAtMost: configuration.closeLimit)
    }

    /// Makes a new session when the last one was lost and its wait is over, then saves the
    /// queued changes and the buckets that ended by now, in one transaction.
    public func flush() {
        reconnectIfDue()
        guard writing.current else { return }
        writer.save(state, clock: configuration.clock, unsavedLimit: configuration.unsavedLimit)
    }

    /// Starts writing with the history read anew (what the last process to run the deck left:
    /// health, open tallies, watches, the notifications' ledger), or saves what waits and stops.
    /// A read that fails leaves the store not writing, with the trouble said, and the next save
    /// of a process that runs the deck tries again.
    public func setWriting(_ writes: Bool) {
        guard writes else {
            flush()
            writing.withLock { $0 = false }
            return
        }
        reconnectIfDue()
        let read = state.withLock { state -> PostgresError? in
            guard let session = state.session else {
                return PostgresError(kind: .connection, message: state.connectionFailure)
            }
            do throws(PostgresError) {
                state = try PostgresStoreState(session: session, server: address.server, retention: configuration.retention,
                                               now: configuration.now(), running: true)
                return nil
            } catch {
                state.failed(error)
                return error
            }
        }
        writing.withLock { $0 = read == nil }
    }

    /// Connects outside the state's lock (it may take seconds), so that reads answer meanwhile.
    private func reconnectIfDue() {
        guard state.withLock({ $0.session == nil && ContinuousClock.now >= $0.nextReconnect }) else { return }
        let failure: String
        do {
            let session = try PostgresConnection(address.url)
            try PostgresSchema.migrate(session, server: address.server)
            let refused = state.withLock { state -> PostgresError? in
                do throws(PostgresError) {
                    try state.readPanelKeys(session)
                } catch {
                    return error
                }
                state.session = session
                state.reconnectAttempts = 0
                return nil
            }
            guard let refused else { return }
            failure = refused.message
        } catch let error as PostgresError {
            failure = error.message
        } catch let error as PostgresStoreError {
            failure = Self.reason(error)
        } catch {
            failure = "\(error)"
        }
        state.withLock { state in
            state.connectionFailure = failure
            let delays = configuration.reconnectDelays
            state.nextReconnect = .now + min(delays.upperBound, delays.lowerBound * (1 << min(state.reconnectAttempts, 20)))
            state.reconnectAttempts += 1
        }
    }

    /// Moves the queued changes into `state`, so that a query answers with them too.
    private func absorbQueue(into state: inout PostgresStoreState) {
        state.history.absorb(writer.takeQueued(), at: configuration.clock.read(), unsavedLimit: configuration.unsavedLimit)
    }

    /// The reason alone, for the trouble card's detail: its message already names the server.
    private static func reason(_ error: PostgresStoreError) -> String {
        switch error {
        case .unreachable(_, let reason), .refused(_, let reason): reason
        default: error.description
        }
    }
}

// MARK: - Reading

extension PostgresHistoryStore {
    public func memories(of panelIds: [String]) -> [String: PanelMemory] {
        state.withLock { state in
            var memories: [String: PanelMemory] = [:]
            for id in panelIds {
                do throws(PostgresError) {
                    if let memory = try state.memory(of: id) { memories[id] = memory }
                } catch {
                    state.failed(error)
                }
            }
            return memories
        }
    }

    public func changes(of panel: String, _ query: HistoryQuery) throws(HistoryStoreError) -> HistoryPage {
        try read { state throws(PostgresError) in try state.changes(of: panel, query) }
    }

    public func uptime(of panel: String, _ query: TimelineQuery) throws(HistoryStoreError) -> UptimeReport {
        try read { state throws(PostgresError) in
            try state.uptime(of: panel, query, now: configuration.now())
        }
    }

    /// Runs a query with the newest changes absorbed; a session lost meanwhile is dropped, for the
    /// writer to make a new one.
    private func read<T>(_ body: (inout PostgresStoreState) throws(PostgresError) -> T) throws(HistoryStoreError) -> T {
        let result = state.withLock { state -> Result<T, PostgresError> in
            absorbQueue(into: &state)
            do throws(PostgresError) {
                return .success(try body(&state))
            } catch {
                state.failed(error)
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .unreadable(error.message)
        }
    }
}
