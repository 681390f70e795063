import FoundationEssentials
import Locking
import MicroHTTP
import StateDeck
import StateDeckNotifications

/// `POST /api/notify/test` with `{"target": name}`: the `test` notification sent now, in one
/// attempt, to every target of the deck's notify entries with that name, and what came of each.
///
/// | the request | answer |
/// | --- | --- |
/// | a name the deck's targets have | 200 `{"results": [{"target", "outcome": "sent"|"failed", "error", "ms"}]}`, one per target of that name (two webhooks on one host share it), in the order the panels name them; a failed send is a 200 too |
/// | a name no target has | 404 `not_found`, its message listing the names there are |
/// | a body that is not `{"target": string}` | 400 `bad_request` naming the field |
/// | a name whose test is still under way | 429 `test_under_way`: one test at a time per name |
///
/// Each target's outcome is also logged (`GET /api/notify/log`), as an entry of event `test`.
/// An action like a retry: the gate lets it in as one, and a server whose host runs the deck elsewhere, which does not run
/// the deck carries it to the one that does, whose targets send it. Each target's send ends
/// within ``TestSend/timeLimit``, so the answer comes within what forwarding waits for.
struct NotifyTestRoute: Sendable {
    let deck: @Sendable () -> Deck
    /// Where each test's outcome is logged, as the notifier's decisions are (`GET /api/notify/log`).
    let log: NotificationLog
    /// Runs an action here, or where the deck runs (a host's process).
    let action: @Sendable (HTTPRequest, @escaping @Sendable () async throws -> ActionOutcome) -> HTTPReply
    /// The names whose test is under way.
    private let underWay = Locked<Set<String>>([])

    init(deck: @escaping @Sendable () -> Deck, log: NotificationLog,
         action: @escaping @Sendable (HTTPRequest, @escaping @Sendable () async throws -> ActionOutcome) -> HTTPReply) {
        self.deck = deck
        self.log = log
        self.action = action
    }

    func register(on router: inout Router) {
        router.on(.post, "/api/notify/test") { request, _ in
            action(request) { try await test(request) }
        }
    }

    /// The answer; a test that was sent (whatever each target made of it) is signed with its name.
    private func test(_ request: HTTPRequest) async throws -> ActionOutcome {
        let name = try RequestBody.decode(NotifyTestBody.self, from: request).target
        let deck = deck()
        let targets = deck.notifyTargets
        let named = targets.filter { $0.name == name }
        guard !named.isEmpty else {
            return ActionOutcome(.apiError(.notFound, code: "not_found", message: Self.unknown(name, among: targets)))
        }
        guard underWay.withLock({ $0.insert(name).inserted }) else {
            return ActionOutcome(.apiError(.tooManyRequests, code: "test_under_way",
                                           message: "a test of \(name) is under way; try again once it has answered"))
        }
        defer { underWay.withLock { _ = $0.remove(name) } }
        let notification = DeckNotification.test(ofDeck: deck.title, at: deck.configuration.now())
        let sends = await Self.send(notification, to: named, clock: deck.configuration.clock)
        for send in sends { log.record(NotificationLog.Entry(notification, target: send.target, outcome: send.logged)) }
        return ActionOutcome(.api(.ok, try DeckJSON.makeEncoder().encode(NotifyTestAnswer(results: sends.map(NotifyTestAnswer.Result.init)))),
                             audit: AuditNote(action: .notifyTest, subject: name))
    }

    /// Sends `notification` to each of `targets` at once; the outcomes in the targets' order.
    private static func send(_ notification: DeckNotification, to targets: [any NotificationTarget],
                             clock: any Clock<Duration>) async -> [TestSend] {
        await withTaskGroup(of: (Int, TestSend).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask { (index, await TestSend.send(notification, to: target, clock: clock)) }
            }
            var sends: [(Int, TestSend)] = []
            for await send in group { sends.append(send) }
            return sends.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The 404's message: the name asked for and the names there are.
    private static func unknown(_ name: String, among targets: [any NotificationTarget]) -> String {
        var seen = Set<String>()
        let names = targets.map(\.name).filter { seen.insert($0).inserted }
        guard !names.isEmpty else { return "no notify target is named \"\(name)\": this deck has none" }
        return "no notify target is named \"\(name)\"; the deck's are " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension TestSend {
    /// The outcome as the notification log says it.
    var logged: NotificationLog.Outcome {
        switch outcome {
        case .sent: .sent
        case .failed(let message): .failed(message)
        }
    }
}

/// `POST /api/notify/test` body.
struct NotifyTestBody: Decodable {
    let target: String
}

/// `POST /api/notify/test`'s answer.
struct NotifyTestAnswer: Encodable {
    let results: [Result]

    struct Result: Encodable {
        let target: String
        let outcome: String
        let error: String?
        let ms: Int

        init(_ send: TestSend) {
            target = send.target
            switch send.outcome {
            case .sent: (outcome, error) = ("sent", nil)
            case .failed(let message): (outcome, error) = ("failed", message)
            }
            ms = Int((send.duration / .milliseconds(1)).rounded())
        }

        /// `error` is written as null when the target took it.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(target, forKey: .target)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(error, forKey: .error)
            try container.encode(ms, forKey: .ms)
        }

        private enum CodingKeys: String, CodingKey {
            case target, outcome, error, ms
        }
    }
}
