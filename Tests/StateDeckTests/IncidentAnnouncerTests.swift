import Foundation
import Testing
@testable import StateDeck
@testable import StateDeckNotifications

/// The incident targets told each step of an incident, in order, on a deck on a test clock.
@Suite(.stopsDecks) struct IncidentAnnouncerTests {
    /// Fails every delivery, as a target that gave up does.
    struct FailingTarget: NotificationTarget {
        let name = "webhook down.example"

        func deliver(_ notification: DeckNotification) async throws {
            throw NotifyFailure()
        }

        func deliver(_ gathered: GatheredNotification) async throws {
            throw NotifyFailure()
        }
    }

    struct NotifyFailure: Error, CustomStringConvertible {
        var description: String { "webhook down.example: HTTP 503, after 3 attempts" }
    }

    @Test func eachStepIsToldInOrderWithTheIncident() async throws {
        let test = await TestDeck { Panel("api", title: "API", heartbeat: .every(.seconds(3_600), grace: .seconds(60))) }
        let target = NotifierTests.RecordingTarget(name: "webhook hooks.example")
        let log = NotificationLog()
        let announcer = IncidentAnnouncer(targets: [target], log: log) { _ in Issue.record("nothing fails") }
        await announcer.follow(test.deck)
        await test.deck.start()
        let opened = try await test.deck.openIncident(title: "Slow answers", panels: ["api"], status: .investigating,
                                                      message: "Looking", author: "ana")
        await test.advance(to: .seconds(60))
        _ = try await test.deck.updateIncident(opened.id, status: .identified, message: "Disk full", author: "bo")
        await test.advance(to: .seconds(42 * 60))
        _ = try await test.deck.updateIncident(opened.id, status: .resolved, message: "Cleaned", author: "ana")
        let sent = try #require(await test.eventually { target.sent.all.count == 3 ? target.sent.all : nil })
        #expect(sent.map(\.message) == [
            "Incident opened: Slow answers (investigating): Looking",
            "Incident update: Slow answers (identified): Disk full",
            "Incident resolved after 42 min: Slow answers: Cleaned",
        ])
        #expect(sent.allSatisfy { $0.event == .incident && $0.panel == "statedeck" && $0.title == "Slow answers" })
        #expect(sent.map(\.at) == [TestDeck.date(at: .zero), TestDeck.date(at: .seconds(60)), TestDeck.date(at: .seconds(42 * 60))])
        #expect(sent.last?.downSince == TestDeck.date(at: .zero))
        #expect(sent.last?.downSeconds == 42 * 60)
        #expect(sent.last?.incident == DeckNotification.IncidentStep(id: opened.id, status: .resolved, panels: ["api"],
                                                                       update: "Cleaned", author: "ana"))
        #expect(log.entries.map(\.outcome) == [.sent, .sent, .sent])
        #expect(log.entries.first?.event == .incident)
        announcer.stop()
    }

    @Test func anAnnouncementSaysSoAndAFailureIsLoggedAndHandedOn() async throws {
        let test = await TestDeck { Panel("api", title: "API", heartbeat: .every(.seconds(3_600), grace: .seconds(60))) }
        let log = NotificationLog()
        let failures = Recorder<String>()
        let announcer = IncidentAnnouncer(targets: [FailingTarget()], log: log) { failures.append($0) }
        await announcer.follow(test.deck)
        _ = try await test.deck.openIncident(title: "Move on Sunday", panels: [], status: .monitoring, message: "Read only",
                                             author: "ana")
        let failure = await test.eventually { failures.all.first }
        #expect(failure == "webhook down.example: HTTP 503, after 3 attempts")
        #expect(log.entries.map(\.message) == ["Announcement opened: Move on Sunday (monitoring): Read only"])
        #expect(log.entries.map(\.outcome) == [.failed("webhook down.example: HTTP 503, after 3 attempts")])
        announcer.stop()
    }
}
