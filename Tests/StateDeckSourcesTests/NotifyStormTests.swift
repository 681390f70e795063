import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// A storm gathered into one message reaches a command and a webhook whatever its size: the
/// notifications that fit the target's limit listed, the rest counted in `more`, the message and
/// `count` telling them all.
@Suite("Notify storms")
struct NotifyStormTests {
    static let at = Date(timeIntervalSince1970: 1_795_341_660)

    /// `count` failures decided together, each with an error message of `length` characters.
    static func storm(of count: Int, errorLength length: Int) -> GatheredNotification {
        let told = (1...count).map { index in
            DeckNotification(event: .failure, panel: "panel-\(index)", title: "Panel \(index)", group: nil,
                             error: .init(kind: "timeout", title: "Timed out", message: String(repeating: "w", count: length)),
                             downSince: at.addingTimeInterval(-60), at: at)
        }
        return GatheredNotification(told, at: at)
    }

    /// Checks `json` is the storm of `count` as a target got it: well-formed, the first
    /// notifications in order, `more` counting the rest; gives how many it lists.
    static func listed(in json: Data, of count: Int) throws -> Int {
        let message = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(message["event"] as? String == "failure")
        #expect(message["message"] as? String == "\(count) panels down: Panel 1, Panel 2, Panel 3, and \(count - 3) more")
        #expect(message["count"] as? Int == count)
        let told = try #require(message["notifications"] as? [[String: Any]])
        #expect(told.map { $0["panel"] as? String } == (1...told.count).map { "panel-\($0)" })
        #expect(message["more"] as? Int == count - told.count)
        return told.count
    }

    @Test func aThousandNotificationsGoToACommandListingWhatFitsItsInputAndCountingTheRest() async throws {
        let folder = try TemporaryFolder()
        let script = #"cat > input.json; printf '%s\n%s\n%s\n' "$STATEDECK_COUNT" "$STATEDECK_MORE" "$STATEDECK_PANELS" > seen; printf %s "$STATEDECK_TITLES" > titles"#
        let target = CommandTarget(command: .shell(script, workingDirectory: folder.path))
        try await target.deliver(Self.storm(of: 1_000, errorLength: 100))
        let input = try Data(contentsOf: URL(fileURLWithPath: folder.path("input.json")))
        #expect(input.count <= CommandSpec.maximumInput)
        let listed = try Self.listed(in: input, of: 1_000)
        #expect(listed > 100, "as many as fit, not a few")
        #expect(listed < 1_000)
        let seen = try String(contentsOfFile: folder.path("seen"), encoding: .utf8).split(separator: "\n")
        #expect(seen.prefix(2) == ["1000", "\(1_000 - listed)"])
        #expect(seen.last?.split(separator: ",").count == listed, "the ids of those listed")
        let titles = try String(contentsOfFile: folder.path("titles"), encoding: .utf8).split(separator: "\n")
        #expect(titles.count == listed + 1)
        #expect(titles.last == "and \(1_000 - listed) more")
    }

    @Test func aThousandNotificationsGoToAWebhookListingWhatFitsItsBodyAndCountingTheRest() async throws {
        let server = try TestHTTPServer(routes: ["/hook": .init(status: 204)])
        let target = WebhookTarget(url: server.url("/hook"))
        try await target.deliver(Self.storm(of: 1_000, errorLength: 1_500))
        let body = try #require(server.bodies.first)
        #expect(server.bodies.count == 1)
        #expect(body.count <= WebhookTarget.maximumBody)
        let listed = try Self.listed(in: Data(body), of: 1_000)
        #expect(listed > 500)
        #expect(listed < 1_000)
    }

    @Test func aStormThatFitsIsListedWhole() async throws {
        let server = try TestHTTPServer(routes: ["/hook": .init(status: 204)])
        try await WebhookTarget(url: server.url("/hook")).deliver(Self.storm(of: 1_000, errorLength: 20))
        #expect(try Self.listed(in: Data(try #require(server.bodies.first)), of: 1_000) == 1_000)
    }
}
