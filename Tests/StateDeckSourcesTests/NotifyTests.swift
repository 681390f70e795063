import Foundation
import StateDeck
import StateDeckNotifications
import TestSupport
import Testing
@testable import StateDeckSources

/// `notify:` in a deck file, and the targets that deliver.
@Suite("Notify")
struct NotifyTests {
    static let notification = {
        var told = DeckNotification(
            event: .failure, panel: "api", title: "API", group: "services",
            error: .init(kind: "timeout", title: "Timed out", message: "No answer within 5 s."),
            downSince: Date(timeIntervalSince1970: 1_795_341_600), at: Date(timeIntervalSince1970: 1_795_341_660))
        told.id = "5f0e2c4a-7d1b-4c3e-9a8f-2b6d1e0c9f17"
        return told
    }()

    /// Defaults and a group's defaults, each with notify entries, for the panels that follow.
    static let inherited = """
        defaults:
          notify: [{ command: { run: [notify-send, StateDeck] } }]
        groups:
          - id: payments
            defaults:
              notify:
                - webhook: { url: "https://hooks.example/pay", headers: { Authorization: "Bearer ${TOKEN}" } }
                  after: { down: 2m }
                  remind: { every: 1h, times: 3 }

        """

    func deck(_ yaml: String) throws -> DeckFile {
        try DeckFile.parse(yaml, file: "deck.yaml", folder: "/stack", environment: ["TOKEN": "s3cret"])
    }

    @Test func entriesComeFromThePanelThenItsGroupThenTheDefaults() throws {
        let file = try deck(Self.inherited + """
            panels:
              - { id: stripe, group: payments, tcp: { host: localhost, port: 1 } }
              - { id: db, tcp: { host: localhost, port: 2 } }
              - { id: quiet, notify: none, tcp: { host: localhost, port: 3 } }
              - { id: both, notify: [{ command: { run: [true] }, after: { failures: 2, down: 30s } }], tcp: { host: localhost, port: 4 } }
              - { id: steady, notify: [{ command: { run: [true] }, after: { successes: 2 } }], tcp: { host: localhost, port: 5 } }
              - { id: slow, notify: [{ command: { run: [true] }, gather: 1m }], tcp: { host: localhost, port: 6 } }
              - { id: eager, notify: [{ command: { run: [true] }, gather: off }], tcp: { host: localhost, port: 7 } }
            """)
        let notify = Dictionary(uniqueKeysWithValues: file.panels.map { ($0.id, $0.settings.notify) })
        let hook = try #require(notify["stripe"]?.entries.first)
        #expect(hook.target == .webhook(url: URL(string: "https://hooks.example/pay")!, headers: ["Authorization": "Bearer s3cret"]))
        #expect(hook.rule == NotifyRule(failures: nil, down: .seconds(120), remind: .init(every: .seconds(3_600), times: 3)))
        #expect(notify["db"]?.entries.map(\.rule) == [NotifyRule(failures: 3)], "the defaults: three failed loads in a row")
        #expect(notify["quiet"] == NotifyDeclaration.none)
        #expect(notify["both"]?.entries.first?.rule == NotifyRule(failures: 2, down: .seconds(30)))
        #expect(notify["steady"]?.entries.first?.rule == NotifyRule(failures: 3, successes: 2), "the way up alone; the way down keeps its default")
        #expect(notify["db"]?.entries.first?.rule.gather == .seconds(10), "gathered for 10 s unless the entry says")
        #expect(notify["slow"]?.entries.first?.rule == NotifyRule(failures: 3, gather: .seconds(60)))
        #expect(notify["eager"]?.entries.first?.rule == NotifyRule(failures: 3, gather: .zero))
        let keys = Notifier.Subscription.all(of: file.makeDeck()).map(\.key)
        #expect(keys.map { $0.split(separator: "#")[0] } == ["stripe", "db", "both", "steady", "slow", "eager"])
        #expect(keys.allSatisfy { $0.split(separator: "#")[1].count == 64 }, "each entry named by its SHA-256")
        #expect(!keys.contains { $0.contains("s3cret") }, "no header's value in the key the history keeps")
    }

    @Test func aDeckFileAndTheDSLSayingTheSameMakeTheSameSubscriptions() throws {
        let file = try deck(Self.inherited + """
            panels:
              - { id: stripe, group: payments, tcp: { host: localhost, port: 1 } }
              - { id: db, tcp: { host: localhost, port: 2 } }
              - { id: quiet, notify: none, tcp: { host: localhost, port: 3 } }
              - { id: plain, notify: [], tcp: { host: localhost, port: 4 } }
            """)
        let chat = CommandSpec(arguments: ["notify-send", "StateDeck"], workingDirectory: "/stack", timeout: .seconds(30))
        let dsl = Deck("Notify") {
            Panel("stripe", title: "stripe") { Info(summary: "up") }
                .notify(.webhook(URL(string: "https://hooks.example/pay")!, headers: ["Authorization": "Bearer s3cret"]),
                        .down(.seconds(120)).reminding(every: .seconds(3_600), times: 3))
            Panel("db", title: "db") { Info(summary: "up") }.notify(.command(chat))
            Panel("quiet", title: "quiet") { Info(summary: "up") }.notify(.none)
            Panel("plain", title: "plain") { Info(summary: "up") }
        }
        let page = PageTarget()
        let fromFile = Notifier.Subscription.all(of: file.makeDeck(), page: page).map(Self.described)
        let fromDSL = Notifier.Subscription.all(of: dsl, page: page).map(Self.described)
        #expect(fromFile == fromDSL)
        #expect(fromFile.map { $0.key.split(separator: "#")[0] } == ["stripe", "stripe", "db", "db", "plain"])
        #expect(fromFile.map { $0.key.hasSuffix("#page") } == [false, true, false, true, true])
        #expect(fromFile.last?.rule == NotifyRule(), "a panel without entries: the page by the default rule")
        #expect(fromFile[1].rule == fromFile[0].rule, "the page follows the first entry's rule")
    }

    /// The page's stand-in: named, never sent to here.
    struct PageTarget: NotificationTarget {
        let name = "page"

        func deliver(_ notification: DeckNotification) async throws {}
        func deliver(_ gathered: GatheredNotification) async throws {}
    }

    /// What a subscription says, targets compared by what they deliver to.
    struct Described: Equatable {
        var key: String
        var rule: NotifyRule
        var target: String
    }

    static func described(_ subscription: Notifier.Subscription) -> Described {
        let target = switch subscription.target {
        case let hook as WebhookTarget: "webhook \(hook.url) \(hook.headers)"
        case let command as CommandTarget: "command \(command.command)"
        default: subscription.target.name
        }
        return Described(key: subscription.key, rule: subscription.rule, target: target)
    }

    @Test func aCommandGetsTheNotificationInVariablesAndItsJSONOnItsInputButNothingInItsArguments() async throws {
        let folder = try TemporaryFolder()
        let script = #"cat > "$1/input.json"; printf '%s|%s|%s|%s|%s|%s' "$STATEDECK_EVENT" "$STATEDECK_TITLE" "$STATEDECK_ERROR_KIND" "$STATEDECK_MESSAGE" "$STATEDECK_NOTIFICATION_ID" "$2" > "$1/seen.txt""#
        let target = CommandTarget(command: CommandSpec(arguments: ["sh", "-c", script, "sh", folder.path, "{message}"]))
        try await target.deliver(Self.notification)
        let seen = try String(contentsOfFile: folder.path("seen.txt"), encoding: .utf8)
        #expect(seen == "failure|API|timeout|API is down: Timed out|5f0e2c4a-7d1b-4c3e-9a8f-2b6d1e0c9f17|{message}",
                "an argument stays as the program wrote it")
        let input = try Data(contentsOf: URL(fileURLWithPath: folder.path("input.json")))
        #expect(input == (try DeckJSON.makeEncoder().encode(Self.notification)))
        let json = try #require(try JSONSerialization.jsonObject(with: input) as? [String: Any])
        #expect(json["event"] as? String == "failure")
        #expect(json["downSince"] as? String == "2026-11-22T10:00:00.000Z")
        #expect(json["downSeconds"] as? Int == 60)
    }

    @Test func aGatheredMessageGivesACommandItsCountPanelsAndTitlesAndItsJSONOnItsInput() async throws {
        let folder = try TemporaryFolder()
        var web = Self.notification
        web.panel = "web"
        web.title = "Web"
        let gathered = GatheredNotification([Self.notification, web], at: Self.notification.at)
        let script = #"cat > "$1/input.json"; printf '%s|%s|%s|%s|%s|%s|%s|%s|%s' "$STATEDECK_EVENT" "$STATEDECK_COUNT" "$STATEDECK_MORE" "$STATEDECK_PANELS" "$STATEDECK_TITLES" "$STATEDECK_MESSAGE" "$STATEDECK_PANEL" "$STATEDECK_TITLE" "$STATEDECK_NOTIFICATION_ID" > "$1/seen.txt""#
        let target = CommandTarget(command: CommandSpec(arguments: ["sh", "-c", script, "sh", folder.path]))
        try await target.deliver(gathered)
        let seen = try String(contentsOfFile: folder.path("seen.txt"), encoding: .utf8)
        #expect(seen == "failure|2|0|api,web|API\nWeb|2 panels down: API, Web|api,web|API, Web|\(gathered.id)")
        let input = try Data(contentsOf: URL(fileURLWithPath: folder.path("input.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: input) as? [String: Any])
        #expect(json["count"] as? Int == 2)
        #expect(json["more"] as? Int == 0, "every notification listed")
        #expect(json["at"] as? String == "2026-11-22T10:01:00.000Z")
        #expect(json["panel"] == nil, "no single panel")
        #expect(json["id"] as? String == gathered.id)
        let told = try #require(json["notifications"] as? [[String: Any]])
        #expect(told.map { $0["panel"] as? String } == ["api", "web"])
        #expect(told.first?["message"] as? String == "API is down: Timed out", "each as it is told alone")
    }

    @Test func entriesNamingTheSameTargetHaveOneAddress() {
        let url = URL(string: "https://hooks.example/a")!
        #expect(WebhookTarget.webhook(url, headers: ["X": "1"]).address == WebhookTarget.webhook(url, headers: ["X": "1"]).address)
        #expect(WebhookTarget.webhook(url, headers: ["X": "1"]).address != WebhookTarget.webhook(url, headers: ["X": "2"]).address)
        #expect(WebhookTarget.webhook(url).address != WebhookTarget.webhook(URL(string: "https://hooks.example/b")!).address,
                "one host, two hooks")
        let apprise = CommandSpec(arguments: ["apprise", "-t", "StateDeck", "mailto://ops"])
        #expect(CommandTarget.command(apprise).address == CommandTarget.command(apprise).address)
        #expect(CommandTarget.command(apprise).address != CommandTarget.command(CommandSpec(arguments: ["apprise", "-t", "StateDeck", "tgram://x"])).address)
    }

    @Test func aCommandThatFailsSaysHowWithItsLastLineOfErrors() async throws {
        let target = CommandTarget(command: CommandSpec(arguments: ["sh", "-c", "echo first >&2; echo 'no route to chat' >&2; exit 3"]))
        await #expect { try await target.deliver(Self.notification) } throws: { error in
            "\(error)" == "command sh exited with status 3: no route to chat"
        }
    }

    @Test func aWebhookPostsTheNotificationWithItsHeaders() async throws {
        let server = try TestHTTPServer(routes: ["/hook": .init(status: 204)])
        let target = WebhookTarget(url: server.url("/hook"), headers: ["Authorization": "Bearer s3cret"])
        try await target.deliver(Self.notification)
        let head = try #require(server.requests.first)
        #expect(head.hasPrefix("POST /hook HTTP/1.1"))
        #expect(head.contains("Content-Type: application/json"))
        #expect(head.contains("Authorization: Bearer s3cret"))
        #expect(server.requests.count == 1)
    }

    @Test func aWebhookThatKeepsFailingIsTriedAgainThenGivenUp() async throws {
        let server = try TestHTTPServer(routes: ["/hook": .init(status: 503)])
        let target = WebhookTarget(url: server.url("/hook"), retryDelays: [.milliseconds(10), .milliseconds(20)])
        await #expect { try await target.deliver(Self.notification) } throws: { error in
            "\(error)" == "webhook 127.0.0.1: HTTP 503, after 3 attempts"
        }
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.contains("Idempotency-Key: 5f0e2c4a-7d1b-4c3e-9a8f-2b6d1e0c9f17") },
                "each attempt under the notification's id, which a receiver drops a repeat by")
    }

    /// A gathered message's id is its notifications': the same ones sent again carry the same id,
    /// a message gathering another one too carries another.
    @Test func aGatheredMessagesIdIsThatOfItsNotifications() {
        var web = Self.notification
        web.panel = "web"
        web.id = "0b7a51f4-3c2d-4e9f-8a61-d5c2e7f9a403"
        let at = Self.notification.at
        #expect(GatheredNotification([Self.notification, web], at: at).id
                    == GatheredNotification([Self.notification, web], at: at.addingTimeInterval(30)).id)
        #expect(GatheredNotification([Self.notification, web], at: at).id != GatheredNotification([Self.notification], at: at).id)
        #expect(GatheredNotification([Self.notification, web], at: at).id.count == 32)
    }

    @Test func aWebhooksAttemptIsOnePostNotRetried() async throws {
        let server = try TestHTTPServer(routes: ["/hook": .init(status: 503)])
        let target = WebhookTarget(url: server.url("/hook"), retryDelays: [.milliseconds(10), .milliseconds(20)])
        await #expect { try await target.attempt(Self.notification) } throws: { error in
            "\(error)" == "webhook 127.0.0.1: HTTP 503"
        }
        #expect(server.requests.count == 1)
    }

    @Test func aDeckFilesTargetsAreEachOnceWhicheverPanelsNameThem() throws {
        let file = try deck(Self.inherited + """
            panels:
              - { id: stripe, group: payments, tcp: { host: localhost, port: 1 } }
              - { id: db, tcp: { host: localhost, port: 2 } }
              - { id: cache, tcp: { host: localhost, port: 3 } }
              - { id: refunds, group: payments, tcp: { host: localhost, port: 4 } }
              - { id: quiet, notify: none, tcp: { host: localhost, port: 5 } }
              - { id: other, notify: [{ webhook: { url: "https://hooks.example/other" } }], tcp: { host: localhost, port: 6 } }
            """)
        let targets = file.makeDeck().notifyTargets
        #expect(targets.map(\.name) == ["webhook hooks.example", "command notify-send", "webhook hooks.example"],
                "one per target, two webhooks on one host being two")
        #expect(targets.compactMap { ($0 as? WebhookTarget)?.url.path } == ["/pay", "/other"])
    }
}
