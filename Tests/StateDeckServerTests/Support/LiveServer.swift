import DeckTestSupport
import Foundation
import StateDeck
import StateDeckServer
import TestSupport
import Testing

/// The live dashboard (`LiveDeckServer`) over the scripted test deck and the hermetic page folder:
/// for what needs a socket (streams, the transport's own answers and headers, connections).
final class LiveServer: TestDeckServer {
    let scripts: TestDeck
    let live: LiveDeckServer
    let folder: PublicFolder

    var port: Int { live.port }
    var deckServer: DeckServer { live.server }

    /// Open SSE streams.
    var liveStreamCount: Int { live.liveStreamCount }

    init(options: Options) async throws {
        scripts = TestDeck()
        folder = try PublicFolder()
        do {
            live = try await LiveDeckServer(deck: scripts.make(), options: options.deckServerOptions, publicDirectory: folder.url)
        } catch {
            folder.remove()
            throw error
        }
    }

    func stop() async {
        scripts.releaseAll()
        await live.stop()
        folder.remove()
    }

    // MARK: Requests

    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPTestResponse {
        try await live.request(method, path, headers: [("Host", live.hostHeader)] + headers, body: body)
    }

    /// Sends `raw` bytes exactly as given, so no client normalizes them, and reads one answer.
    func raw(_ raw: String) async throws -> HTTPTestResponse {
        try await live.raw(raw)
    }

    /// Sends `method target` with the target exactly as given, and a `Host` naming this server
    /// (so the request gate lets it through to routing), then reads one answer.
    func raw(_ method: String, target: String) async throws -> HTTPTestResponse {
        try await raw("\(method) \(target) HTTP/1.1\r\nHost: \(live.hostHeader)\r\nConnection: close\r\n\r\n")
    }

    /// Opens `/events`, with `Last-Event-ID` when given.
    func events(lastEventID: String? = nil) async throws -> AsyncSSEClient {
        try await live.events(lastEventID: lastEventID)
    }

    /// Opens `count` streams at once.
    func events(count: Int) async throws -> [AsyncSSEClient] {
        try await live.events(count: count)
    }
}
