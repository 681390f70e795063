import Foundation
import StateDeck
import StateDeckNotifications
import Testing

/// The rules of a notify entry, on one panel's outage, at exact times.
struct OutageWatchTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_341_600)
    static let error = DeckNotification.ErrorSummary(kind: "timeout", title: "Timed out", message: "No answer.")

    static func at(_ offset: Duration) -> Date { t0.addingTimeInterval(offset / .seconds(1)) }

    @Test func aFailureIsToldOnceAfterTheFailuresInARowThenItsRecoveryOnce() {
        let rule = NotifyRule(failures: 3)
        var watch = OutageWatch()
        #expect(watch.failed(with: Self.error, at: Self.t0, rule: rule) == nil)
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(15)), rule: rule) == nil)
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(30)), rule: rule) == .failure)
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(45)), rule: rule) == nil)
        #expect(watch.nextDue(rule: rule) == nil, "only a load changes anything")
        let recovery = watch.succeeded(at: Self.at(.seconds(60)), rule: rule)
        #expect(recovery?.event == .recovery)
        #expect(recovery?.downSince == Self.t0)
        #expect(recovery?.upSince == Self.at(.seconds(60)))
        #expect(watch.succeeded(at: Self.at(.seconds(75)), rule: rule) == nil)
        #expect(watch == OutageWatch())
    }

    @Test func aRecoveryWaitsForItsSuccessesInARowAndAFailureStartsTheCountAgain() {
        let rule = NotifyRule(failures: 1, successes: 2)
        var watch = OutageWatch()
        #expect(watch.failed(with: Self.error, at: Self.t0, rule: rule) == .failure)
        #expect(watch.succeeded(at: Self.at(.seconds(15)), rule: rule) == nil, "one good result of two")
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(30)), rule: rule) == nil, "still the same outage")
        #expect(watch.succeeded(at: Self.at(.seconds(45)), rule: rule) == nil, "the count started again")
        let recovery = watch.succeeded(at: Self.at(.seconds(60)), rule: rule)
        #expect(recovery?.event == .recovery)
        #expect(recovery?.downSince == Self.t0)
        #expect(recovery?.upSince == Self.at(.seconds(45)), "up since the first of the good results in a row")
        #expect(watch == OutageWatch())
    }

    @Test func aWatchKeptBeforeSuccessesWereCountedReadsAsNoneYet() throws {
        let kept = #"{"failures":3,"downSince":0,"toldAt":10,"remindersSent":0}"#
        let watch = try JSONDecoder().decode(OutageWatch.self, from: Data(kept.utf8))
        #expect(watch.failures == 3)
        #expect(watch.isTold)
        #expect(watch.successes == 0)
        #expect(watch.upSince == nil)
        let again = try JSONDecoder().decode(OutageWatch.self, from: JSONEncoder().encode(watch))
        #expect(again == watch)
    }

    @Test func anOutageTooShortToTellEndsWithoutARecovery() {
        let rule = NotifyRule(failures: 3)
        var watch = OutageWatch()
        _ = watch.failed(with: Self.error, at: Self.t0, rule: rule)
        _ = watch.failed(with: Self.error, at: Self.at(.seconds(15)), rule: rule)
        #expect(watch.succeeded(at: Self.at(.seconds(30)), rule: rule) == nil)
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(45)), rule: rule) == nil, "the count starts again")
    }

    @Test func timeDownIsToldWhenItHasPassedWithoutWaitingForALoad() {
        let rule = NotifyRule(failures: nil, down: .seconds(120))
        var watch = OutageWatch()
        #expect(watch.failed(with: Self.error, at: Self.t0, rule: rule) == nil)
        #expect(watch.nextDue(rule: rule) == Self.at(.seconds(120)))
        #expect(watch.due(at: Self.at(.seconds(119)), rule: rule) == nil)
        #expect(watch.due(at: Self.at(.seconds(120)), rule: rule) == .failure)
        #expect(watch.due(at: Self.at(.seconds(121)), rule: rule) == nil)
    }

    @Test func withBothBothMustHold() {
        let rule = NotifyRule(failures: 2, down: .seconds(60))
        var watch = OutageWatch()
        _ = watch.failed(with: Self.error, at: Self.t0, rule: rule)
        #expect(watch.nextDue(rule: rule) == nil, "one failure: the time alone is not enough")
        #expect(watch.failed(with: Self.error, at: Self.at(.seconds(10)), rule: rule) == nil)
        #expect(watch.nextDue(rule: rule) == Self.at(.seconds(60)))
        #expect(watch.due(at: Self.at(.seconds(60)), rule: rule) == .failure)
    }

    @Test func remindersComeEveryIntervalUpToTheirCap() {
        let rule = NotifyRule(failures: 1, remind: .init(every: .seconds(3_600), times: 2))
        var watch = OutageWatch()
        #expect(watch.failed(with: Self.error, at: Self.t0, rule: rule) == .failure)
        #expect(watch.nextDue(rule: rule) == Self.at(.seconds(3_600)))
        #expect(watch.due(at: Self.at(.seconds(3_599)), rule: rule) == nil)
        #expect(watch.due(at: Self.at(.seconds(3_600)), rule: rule) == .reminder)
        #expect(watch.nextDue(rule: rule) == Self.at(.seconds(7_200)))
        #expect(watch.due(at: Self.at(.seconds(7_200)), rule: rule) == .reminder)
        #expect(watch.nextDue(rule: rule) == nil)
        #expect(watch.due(at: Self.at(.seconds(10_800)), rule: rule) == nil)
    }

    @Test func remindersMissedWhileStoppedAreOneNotABurst() {
        let rule = NotifyRule(failures: 1, remind: .init(every: .seconds(60), times: 5))
        var watch = OutageWatch()
        _ = watch.failed(with: Self.error, at: Self.t0, rule: rule)
        #expect(watch.due(at: Self.at(.seconds(250)), rule: rule) == .reminder)
        #expect(watch.remindersSent == 4)
        #expect(watch.due(at: Self.at(.seconds(250)), rule: rule) == nil)
        #expect(watch.nextDue(rule: rule) == Self.at(.seconds(300)))
    }
}
