import FoundationEssentials
import HistoryStoreTestSupport
import Locking
import StateDeck
import StateDeckHistory
import StateDeckNotifications
@testable import StateDeckSQLite
import Testing

/// A notification goes out only once the ledger has kept it as being sent: while the history
/// cannot be written (a full or read-only disk) it waits, tried again, and goes once the write
/// works, so that a `kill -9` after the send neither loses it nor tells it again.
@Suite struct LedgerWriteFailureTests {
    /// The history store a keeper over a database is, as the app hands the notifier its ledger.
    final class KeptStore: KeptHistoryStore {
        let keeper: HistoryKeeper

        init(keeper: HistoryKeeper) {
            self.keeper = keeper
        }
    }

    /// Keeps each notification it is told.
    final class TellingTarget: NotificationTarget {
        let name = "hook"
        let told = Locked<[DeckNotification]>([])

        func deliver(_ notification: DeckNotification) async throws {
            told.withLock { $0.append(notification) }
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            told.withLock { $0 += gathered.notifications }
        }
    }

    /// A deck of panel "p" told to `target` at its first failure, alone, over a history file whose
    /// commits fail while `database.failing` is set; the ledger is tried again every 10 ms.
    struct Setup {
        let fixture = StoreFixture()
        let database: FailingHistoryDatabase
        let store: KeptStore
        let deck = Deck("Importer") { Panel("p", title: "API") { Info(summary: "up") } }
        let target = TellingTarget()

        init() throws {
            database = FailingHistoryDatabase(try SQLiteHistoryStore.database(in: fixture.folder,
                                                                              configuration: SQLiteHistoryStore.Configuration()))
            var keeping = HistoryKeeper.Configuration()
            keeping.startsWriter = false
            keeping.now = { [fixture] in fixture.now }
            store = KeptStore(keeper: try HistoryKeeper(database: database.database, configuration: keeping))
        }

        /// Panel "p"'s entry: `target`, at the first failure, alone.
        var subscription: Notifier.Subscription {
            Notifier.Subscription(panel: "p", rule: NotifyRule(failures: 1).gathering(.zero), target: target)
        }

        func notifier(carrying carried: [PendingDelivery] = []) async -> Notifier {
            var limits = Notifier.Limits()
            limits.ledgerRetryDelays = .milliseconds(10)...(.milliseconds(10))
            let notifier = Notifier([subscription], ledger: store, carrying: carried, limits: limits)
            await notifier.follow(deck)
            return notifier
        }

        /// A notifier whose first message waits for the ledger: the commits fail from when it
        /// follows the deck, which then fails, until the history has refused `refusals` of them.
        func notifierWaitingForTheLedger(refusals: Int) async throws -> Notifier {
            let notifier = await notifier()
            database.failing.withLock { $0 = true }
            try await deck.push(.error(PanelError(.timeout)), panel: "p")
            await until { database.refused.current >= refusals }
            return notifier
        }

        /// The rows of `table` as another connection sees them: what a process killed now leaves.
        func rows(_ table: String) throws -> Int64? {
            try SQLiteNotificationLedgerTests.rows(table, in: fixture)
        }
    }

    @Test func aNotificationWaitsForTheLedgerAndGoesOnceItIsKept() async throws {
        let setup = try Setup()
        // The keep's own write, then the tries again while the message waits.
        let notifier = try await setup.notifierWaitingForTheLedger(refusals: 5)
        #expect(setup.target.told.current.isEmpty, "not sent while the ledger cannot be written")
        #expect(await notifier.outages[setup.subscription.key]?.isTold == true, "decided, and kept in memory meanwhile")
        #expect(setup.store.trouble?.title == "Out of space", "the failed write is said, not swallowed")
        #expect(try setup.rows("notify_outbox") == 0)

        setup.database.failing.withLock { $0 = false }
        await until { !setup.target.told.current.isEmpty }
        await notifier.finishDeliveries(within: .seconds(5))
        #expect(setup.target.told.current.map(\.event) == [.failure], "sent once the ledger has it")
        // What a `kill -9` now leaves: the outage told, so the next run tells it not again; the
        // delivery done, forgotten.
        #expect(try setup.rows("notify_outages") == 1)
        #expect(try setup.rows("notify_outbox") == 0)
        await notifier.stop()
        setup.store.close()
    }

    /// A delivery the history had before the disk filled is not kept as going out while it is
    /// full: the write that forgets it once delivered would fail as well, and a run killed after
    /// the send would send it again. It is once the disk has room.
    @Test func aDeliveryWrittenBeforeTheDiskFilledIsNotKeptAsGoingOutWhileItIsFull() throws {
        let setup = try Setup()
        let failure = DeckNotification(event: .failure, panel: "p", title: "API", group: nil, error: nil,
                                       downSince: setup.fixture.now, at: setup.fixture.now)
        let delivery = PendingDelivery(key: "p#entry", notification: failure)
        setup.store.keep(OutageWatch(), for: "p#entry", delivering: delivery)
        #expect(try setup.rows("notify_outbox") == 1, "written as it was decided")

        setup.database.failing.withLock { $0 = true }
        #expect(!setup.store.hasKept([delivery.id]))
        #expect(setup.database.refused.current == 1, "the delivery written again, and refused")
        setup.database.failing.withLock { $0 = false }
        #expect(setup.store.hasKept([delivery.id]))
        #expect(try setup.rows("notify_outbox") == 1)
        setup.store.close()
    }

    /// A stop while a message waits for the ledger ends at once, and hands the message on as it
    /// does what a window still collects: the notifier of the deck served next sends it once the
    /// ledger has it.
    @Test func aStopWhileTheLedgerCannotBeWrittenHandsTheMessageOn() async throws {
        let setup = try Setup()
        let first = try await setup.notifierWaitingForTheLedger(refusals: 2)
        let stopping = ContinuousClock.now
        await first.finishDeliveries(within: .seconds(2))
        let carried = await first.stop()
        #expect(ContinuousClock.now - stopping < .milliseconds(500), "nothing under way to wait for")
        #expect(carried.map(\.notification.event) == [.failure])
        #expect(setup.target.told.current.isEmpty)

        setup.database.failing.withLock { $0 = false }
        let next = await setup.notifier(carrying: carried)
        await until { !setup.target.told.current.isEmpty }
        await next.finishDeliveries(within: .seconds(5))
        #expect(setup.target.told.current.map(\.event) == [.failure])
        #expect(try setup.rows("notify_outbox") == 0)
        await next.stop()
        setup.store.close()
    }
}
