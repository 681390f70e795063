import Foundation
import Testing
@testable import StateDeck

/// The one line a gathered message says, and its JSON.
struct GatheredNotificationTests {
    static let origin = Date(timeIntervalSince1970: 1_795_341_600)

    static func told(_ event: DeckNotification.Event, _ titles: [String]) -> [DeckNotification] {
        titles.map { title in
            DeckNotification(event: event, panel: title.lowercased(), title: title, group: nil, error: nil,
                             downSince: origin, at: origin.addingTimeInterval(60))
        }
    }

    @Test func aMessageNamesThreePanelsOfEachKindAndCountsTheRest() {
        let storm = GatheredNotification(Self.told(.failure, ["API", "Web", "Worker"] + (1...11).map { "Job \($0)" }), at: Self.origin)
        #expect(storm.message == "14 panels down: API, Web, Worker, and 11 more")
        #expect(storm.event == .failure)
        #expect(storm.count == 14)
        #expect(GatheredNotification(Self.told(.recovery, ["API", "Web"]), at: Self.origin).message == "2 panels up again: API, Web")
        #expect(GatheredNotification(Self.told(.reminder, ["API", "Web", "DB"]), at: Self.origin).message
            == "3 panels still down: API, Web, DB")
    }

    @Test func kindsTogetherAreMixedDownFirstThenStillDownThenUpAgain() {
        let told = Self.told(.recovery, ["Mail", "DNS"]) + Self.told(.reminder, ["Queue"])
            + Self.told(.failure, ["API", "Web", "Worker", "Cache"])
        let gathered = GatheredNotification(told, at: Self.origin)
        #expect(gathered.event == .mixed)
        #expect(gathered.message == "4 panels down: API, Web, Worker, and 1 more; 1 still down: Queue; 2 up again: Mail, DNS")
        #expect(gathered.notifications == told, "in the order decided")
        #expect(GatheredNotification(Self.told(.recovery, ["Mail"]) + Self.told(.failure, ["API"]), at: Self.origin).message
            == "1 panel down: API; 1 up again: Mail")
    }

    @Test func itsJSONHasTheMessageItsCountAndEachNotificationButNoSinglePanel() throws {
        let gathered = GatheredNotification(Self.told(.failure, ["API", "Web"]), at: Self.origin)
        let json = try #require(try JSONSerialization.jsonObject(with: DeckJSON.makeEncoder().encode(gathered)) as? [String: Any])
        #expect(Set(json.keys) == ["id", "event", "message", "at", "count", "notifications", "more"])
        #expect(json["more"] as? Int == 0)
        #expect(json["at"] as? String == "2026-11-22T10:00:00.000Z")
        #expect((json["notifications"] as? [[String: Any]])?.map { $0["panel"] as? String } == ["api", "web"])
    }

    @Test func aListingWithinALimitNamesTheMostThatFitAndCountsTheRest() throws {
        let storm = GatheredNotification(Self.told(.failure, (1...200).map { "Panel \($0)" }), at: Self.origin)
        let whole = try DeckJSON.makeEncoder().encode(storm).count
        #expect(try storm.listing(within: whole).listed == storm, "all of it, when it fits")
        let limit = whole / 3
        let (listed, json) = try storm.listing(within: limit)
        #expect(json.count <= limit)
        #expect(listed.notifications == Array(storm.notifications.prefix(listed.notifications.count)), "the first, in order")
        #expect(listed.more == 200 - listed.notifications.count)
        #expect(listed.count == 200)
        #expect(listed.message == "200 panels down: Panel 1, Panel 2, Panel 3, and 197 more", "the message tells them all")
        var oneMore = listed
        oneMore.notifications = Array(storm.notifications.prefix(listed.notifications.count + 1))
        oneMore.more -= 1
        #expect(try DeckJSON.makeEncoder().encode(oneMore).count > limit, "the most that fit")
        #expect(json == Array(try DeckJSON.makeEncoder().encode(listed)))
        let none = try storm.listing(within: 10)
        #expect(none.listed.notifications.isEmpty && none.listed.more == 200, "none, when not even one fits")
    }
}
