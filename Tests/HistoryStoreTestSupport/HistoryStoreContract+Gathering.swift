import FoundationEssentials
import Locking
import StateDeck
import StateDeckHistory
import StateDeckNotifications
import Testing

extension HistoryStoreContract {
    /// Keeps the messages it is told, alone or gathered.
    final class GatheringTarget: NotificationTarget {
        let name = "hook"
        let told = Locked<[[DeckNotification]]>([])

        func deliver(_ notification: DeckNotification) async throws {
            told.withLock { $0.append([notification]) }
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            told.withLock { $0.append(gathered.notifications) }
        }
    }

    /// A notifier of panels p0, p1 and p2 on `store`, each failure told to `target` within `gather`.
    private func notifier(on store: Store, _ target: GatheringTarget, gather: Duration) async -> (Notifier, Deck) {
        let deck = Deck("Gathering") {
            for index in 0..<3 { Panel("p\(index)", title: "P\(index)") { Info(summary: "up") } }
        }
        let rule = NotifyRule(failures: 1).gathering(gather)
        let notifier = Notifier((0..<3).map { Notifier.Subscription(panel: "p\($0)", rule: rule, target: target) },
                                ledger: store)
        await notifier.follow(deck)
        return (notifier, deck)
    }

    /// A stop while a window is open: the notifications it gathered were kept as they were
    /// decided (a process killed then leaves them too), and the next run tells them, gathered
    /// again, once; the message that carried them forgets every one, so the run after tells none.
    public func aWindowOpenAtAStopIsToldGatheredAfterItOnce() async throws {
        do {
            let stopped = try open()
            let before = GatheringTarget()
            let (first, deck) = await notifier(on: stopped, before, gather: .seconds(3_600))
            for index in 0..<3 { try await deck.push(.error(PanelError(.timeout)), panel: "p\(index)") }
            await until { await first.outages.count == 3 }
            let crashed = try openAfterCrash()
            #expect(crashed.takeUndelivered().map(\.notification.panel) == ["p0", "p1", "p2"], "on disk as each was decided")
            crashed.close()
            await first.stop()
            stopped.close()
            #expect(before.told.current.isEmpty, "stopped with the window open")
        }

        do {
            let restarted = try open()
            let after = GatheringTarget()
            let (second, _) = await notifier(on: restarted, after, gather: .milliseconds(20))
            await until { !after.told.current.isEmpty }
            await second.finishDeliveries(within: .seconds(5))
            #expect(after.told.current.map { $0.map(\.panel) } == [["p0", "p1", "p2"]], "one message")
            await second.stop()
            restarted.close()
        }

        let again = try open()
        #expect(again.takeUndelivered().isEmpty, "nothing left to tell twice")
        again.close()
    }
}
