import Clocks
import DeckTestSupport
import Foundation
import Locking
import StateDeck
import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// `POST /api/notify/test`, asked of the responder: each target of a name is sent the `test`
    /// notification once, and the answer says what came of it, on the deck's clock; bad names,
    /// bodies, a second test meanwhile and the gate get their answers.
    @Suite struct NotifyTestRouteTests {
        /// 2026-11-25T10:00:00Z, the deck's wall time at its clock's start.
        static let epoch = Date(timeIntervalSince1970: 1_795_600_800)

        /// A deck on `clock` whose panels name `targets` (each panel one), and a panel naming none.
        static func deck(_ targets: [any NotificationTarget], clock: TestClock<Duration>) -> Deck {
            let configuration = Deck.Configuration(
                clock: clock, now: { epoch.addingTimeInterval(TestClock<Duration>.Instant().duration(to: clock.now) / .seconds(1)) })
            let told = targets.enumerated().map { index, target in
                Panel("p\(index)", title: "P\(index)") { Info(summary: "up") }.notify(target)
            }
            return Deck("Ops", configuration: configuration, panels: told + [Panel("quiet", title: "Quiet") { Info(summary: "up") }])
        }

        static func test(_ server: RoutedDeckServer, _ body: String, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
            try await server.request("POST", "/api/notify/test",
                                     headers: [("Host", server.hostHeader), ("Content-Type", "application/json")] + headers,
                                     body: Array(body.utf8))
        }

        /// The answer's results.
        static func results(_ response: HTTPTestResponse) throws -> [[String: Any]] {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            return try #require(document["results"] as? [[String: Any]])
        }

        @Test func theTargetIsSentTheTestAndTheAnswerSaysHowLongItTook() async throws {
            let clock = TestClock<Duration>()
            let target = ScriptedTarget("webhook hooks.example", .takeAt(.milliseconds(250), clock))
            try await RoutedDeckServer.run(Self.deck([target], clock: clock)) { server in
                let answer = Task { try await Self.test(server, #"{"target":"webhook hooks.example"}"#) }
                try #require(await target.waitForAttempt())
                await clock.advance(to: TestClock<Duration>.Instant(offset: .milliseconds(250)))
                let response = try await answer.value
                #expect(response.status == 200)
                #expect(response.header("Cache-Control") == "no-store")
                let results = try Self.results(response)
                #expect(results.count == 1)
                #expect(results.first?["target"] as? String == "webhook hooks.example")
                #expect(results.first?["outcome"] as? String == "sent")
                #expect(results.first?["error"] is NSNull)
                #expect(results.first?["ms"] as? Int == 250)
                let told = try #require(target.heard.first)
                var test = DeckNotification.test(ofDeck: "Ops", at: Self.epoch)
                test.id = try #require(told.id, "a test send has an id of its own")
                #expect(told == test)
                #expect(told.event == .test && told.panel == "statedeck" && told.title == "Ops")
                #expect(told.message == "Test notification from StateDeck: Ops")
            }
        }

        @Test func aTargetThatThrowsIsAFailedSendAnsweredAsOneAndLogged() async throws {
            let clock = TestClock<Duration>()
            let target = ScriptedTarget("command notify-send", .refuse("command notify-send exited with status 3: no display"))
            try await RoutedDeckServer.run(Self.deck([target], clock: clock)) { server in
                let response = try await Self.test(server, #"{"target":"command notify-send"}"#)
                #expect(response.status == 200, "a failed delivery is still an answer")
                let result = try #require(try Self.results(response).first)
                #expect(result["outcome"] as? String == "failed")
                #expect(result["error"] as? String == "command notify-send exited with status 3: no display")
                #expect(result["ms"] as? Int == 0)
                let log = try await server.request("GET", "/api/notify/log", headers: [("Host", server.hostHeader)])
                let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.body)) as? [String: Any])["entries"]
                let logged = try #require((entries as? [[String: Any]])?.first)
                #expect(logged["event"] as? String == "test" && logged["panels"] as? [String] == ["statedeck"])
                #expect(logged["message"] as? String == "Test notification from StateDeck: Ops")
                #expect(logged["target"] as? String == "command notify-send")
                #expect(logged["outcome"] as? String == "failed")
                #expect(logged["why"] as? String == "command notify-send exited with status 3: no display")
                #expect(logged["at"] as? String == "2026-11-25T10:00:00.000Z")
            }
        }

        @Test func aTargetThatDoesNotAnswerFailsAtTheTimeLimit() async throws {
            let clock = TestClock<Duration>()
            let target = ScriptedTarget("webhook slow.example", .hang)
            try await RoutedDeckServer.run(Self.deck([target], clock: clock)) { server in
                let answer = Task { try await Self.test(server, #"{"target":"webhook slow.example"}"#) }
                try #require(await target.waitForAttempt())
                await clock.advance(to: TestClock<Duration>.Instant(offset: .milliseconds(7_999)))
                #expect(target.ended.current == 0)
                await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(8)))
                let result = try #require(try Self.results(try await answer.value).first)
                #expect(result["outcome"] as? String == "failed")
                #expect(result["error"] as? String == "webhook slow.example: no answer within 8 s")
                #expect(result["ms"] as? Int == 8_000)
                #expect(target.ended.current == 1, "the attempt was ended")
            }
        }

        @Test func everyTargetOfTheNameIsSentOnceAndTheStateListsTheNameOnce() async throws {
            let clock = TestClock<Duration>()
            let first = ScriptedTarget("webhook hooks.example", .take, id: 1)
            let second = ScriptedTarget("webhook hooks.example", .refuse("webhook hooks.example: HTTP 404"), id: 2)
            let other = ScriptedTarget("command apprise", .take, id: 3)
            // `first` is named by two panels, as a deck file's `defaults` names one target.
            try await RoutedDeckServer.run(Self.deck([first, first, other, second], clock: clock)) { server in
                let state = try await server.request("GET", "/api/state", headers: [("Host", server.hostHeader)])
                let document = try #require(try JSONSerialization.jsonObject(with: Data(state.body)) as? [String: Any])
                let settings = try #require(document["settings"] as? [String: Any])
                let listed = try #require(settings["notifyTargets"] as? [[String: String]])
                #expect(listed == [["name": "webhook hooks.example"], ["name": "command apprise"]])
                let results = try Self.results(try await Self.test(server, #"{"target":"webhook hooks.example"}"#))
                #expect(results.map { $0["outcome"] as? String } == ["sent", "failed"], "in the order the panels name them")
                #expect(results.map { $0["target"] as? String } == ["webhook hooks.example", "webhook hooks.example"])
                #expect(first.heard.count == 1 && second.heard.count == 1)
                #expect(other.heard.isEmpty)
            }
        }

        @Test func anUnknownNameIsNotFoundAndTheMessageNamesTheTargets() async throws {
            let clock = TestClock<Duration>()
            let targets = [ScriptedTarget("webhook hooks.example", .take), ScriptedTarget("command apprise", .take, id: 2)]
            try await RoutedDeckServer.run(Self.deck(targets, clock: clock)) { server in
                let response = try await Self.test(server, #"{"target":"webhook other.example"}"#)
                #expect(response.status == 404)
                #expect(response.text == #"{"error":{"code":"not_found","message":"no notify target is named \"webhook other.example\"; "#
                    + #"the deck's are \"webhook hooks.example\", \"command apprise\""}}"#)
            }
            try await RoutedDeckServer.run(Self.deck([], clock: clock)) { server in
                let response = try await Self.test(server, #"{"target":"webhook hooks.example"}"#)
                #expect(response.status == 404)
                #expect(response.text.contains(#"this deck has none"#))
            }
        }

        @Test func aBodyThatIsNotATargetsNameIsABadRequest() async throws {
            let clock = TestClock<Duration>()
            let target = ScriptedTarget("webhook hooks.example", .take)
            try await RoutedDeckServer.run(Self.deck([target], clock: clock)) { server in
                let cases = [
                    ("", "the request needs a JSON body"),
                    ("{", "malformed JSON"),
                    ("[]", "the request body must be a JSON object"),
                    ("{}", "field 'target' is missing"),
                    (#"{"target":3}"#, "field 'target' must be a string"),
                    (#"{"target":"webhook hooks.example","target":"x"}"#, "field 'target' is given twice"),
                ]
                for (body, message) in cases {
                    let response = try await Self.test(server, body)
                    #expect(response.status == 400, "\(body)")
                    #expect(response.text.contains(#""code":"bad_request""#) && response.text.contains(message), "\(body): \(response.text)")
                }
                #expect(target.heard.isEmpty)
            }
        }

        @Test func aSecondTestOfTheNameWhileOneIsUnderWayIsRefused() async throws {
            let clock = TestClock<Duration>()
            let slow = ScriptedTarget("webhook slow.example", .hang)
            let quick = ScriptedTarget("command apprise", .take, id: 2)
            try await RoutedDeckServer.run(Self.deck([slow, quick], clock: clock)) { server in
                let answer = Task { try await Self.test(server, #"{"target":"webhook slow.example"}"#) }
                try #require(await slow.waitForAttempt())
                let refused = try await Self.test(server, #"{"target":"webhook slow.example"}"#)
                #expect(refused.status == 429)
                #expect(refused.text.contains(#""code":"test_under_way""#))
                let other = try await Self.test(server, #"{"target":"command apprise"}"#)
                #expect(try Self.results(other).first?["outcome"] as? String == "sent", "another name is not held up")
                await clock.advance(to: TestClock<Duration>.Instant(offset: .seconds(8)))
                #expect(try await answer.value.status == 200)
                #expect(slow.heard.count == 1, "the refused test reached no target")
            }
        }

        @Test func theGateRefusesATestFromAnotherSiteOrWithoutTheToken() async throws {
            let clock = TestClock<Duration>()
            let target = ScriptedTarget("webhook hooks.example", .take)
            try await RoutedDeckServer.run(Self.deck([target], clock: clock)) { server in
                for header in [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")] {
                    let refused = try await Self.test(server, #"{"target":"webhook hooks.example"}"#, headers: [header])
                    #expect(refused.status == 403, "\(header)")
                }
            }
            var options = LiveDeckServer.Options()
            options.token = AccessToken.generate()
            try await RoutedDeckServer.run(Self.deck([target], clock: clock), options) { server in
                let refused = try await Self.test(server, #"{"target":"webhook hooks.example"}"#)
                #expect(refused.status == 403)
                #expect(refused.text.contains("?token="))
            }
            #expect(target.heard.isEmpty)
        }
    }
}

/// A notify target that answers as told and keeps what it was sent. It delivers without
/// retrying, so a test send reaches it through `deliver`, as it would any such target.
private struct ScriptedTarget: NotificationTarget {
    enum Answer: Sendable {
        /// Takes it at once.
        case take
        /// Takes it once `clock` reaches this time.
        case takeAt(Duration, TestClock<Duration>)
        /// Throws this message.
        case refuse(String)
        /// Never answers; ends when cancelled.
        case hang
    }

    let name: String
    let answer: Answer
    /// Tells apart targets of one name.
    let id: Int
    private let sent = Locked<[DeckNotification]>([])
    /// Attempts cancelled.
    let ended = Locked(0)

    init(_ name: String, _ answer: Answer, id: Int = 1) {
        self.name = name
        self.answer = answer
        self.id = id
    }

    var heard: [DeckNotification] { sent.current }

    /// Targets of one name and `id` are one.
    var address: String { "\(name)#\(id)" }

    func deliver(_ notification: DeckNotification) async throws {
        sent.withLock { $0.append(notification) }
        switch answer {
        case .take:
            return
        case .takeAt(let time, let clock):
            try await clock.sleep(until: TestClock<Duration>.Instant(offset: time))
        case .refuse(let message):
            throw ScriptedRefusal(description: message)
        case .hang:
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                ended.withLock { $0 += 1 }
                throw error
            }
        }
    }

    /// Whether an attempt began (within the tests' wait).
    func waitForAttempt() async -> Bool {
        await eventually { !sent.current.isEmpty }
    }

    /// Each of them, as it would be told alone.
    func deliver(_ gathered: GatheredNotification) async throws {
        for notification in gathered.notifications { try await deliver(notification) }
    }
}

private struct ScriptedRefusal: Error, CustomStringConvertible {
    let description: String
}
