import Foundation
import Logging
import StateDeck
import StateDeckCluster
import StateDeckHistory
import StateDeckServer
import TestSupport

/// The tests' one live dashboard: a real `DeckServer` over a deck the test gives, bound to a free
/// port, serving a page folder the test gives (or a temporary one written from `files`).
/// `LiveDeckServer.run(deck) { server in … }` starts it, runs the body and always stops it.
/// Requests go over raw sockets, off the cooperative pool.
public final class LiveDeckServer: Sendable {
    /// How the server is configured; the defaults are those of `ServerConfiguration`.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var token: AccessToken?
        /// Who may call, each with a role; asks for their tokens instead of `token`.
        public var access: AccessList?
        public var debug = false
        public var pingInterval: Duration = .seconds(15)
        public var streamCapacity = 256 * 1024
        /// Where changes are kept; none by default.
        public var history: (any HistoryStore)?
        /// Addresses in front of the server (a load balancer) it answers to.
        public var publicAddresses: [PublicAddress] = []
        /// The panel that tells about the server itself.
        public var ownPanelID: String?
        /// Other servers sharing the deck, and how to make it anew; none by default.
        public var cluster: (cluster: any DeckCluster, makeDeck: @Sendable () async -> Deck)?
        /// Who runs the deck, when a test plays the host itself; `cluster` makes one otherwise.
        public var deckHost: (any DeckHost)?

        public init() {}

        /// A server of `deck` configured with these options, serving `publicDirectory` on a port the
        /// system picks; not started.
        public func server(of deck: Deck, publicDirectory: URL) async throws -> DeckServer {
            var configuration = ServerConfiguration(publicDirectory: publicDirectory)
            configuration.host = host
            configuration.port = 0
            configuration.debug = debug
            configuration.token = token
            configuration.access = access
            configuration.pingInterval = pingInterval
            configuration.streamCapacity = streamCapacity
            configuration.publicAddresses = publicAddresses
            configuration.ownPanelID = ownPanelID
            return try await DeckServer(
                deck: deck, configuration: configuration, history: history,
                host: deckHost ?? cluster.map { ClusterDeckHost(cluster: $0.cluster, makeDeck: $0.makeDeck, logger: LiveDeckServer.quietLogger) },
                logger: LiveDeckServer.quietLogger)
        }
    }

    public let server: DeckServer
    public let port: Int
    public let host: String
    /// The folder written from `files`, removed on `stop()`; nil when the test gave its own.
    private let ownFolder: URL?

    /// The deck being served.
    public var deck: Deck { server.deck }

    /// Open SSE streams.
    public var liveStreamCount: Int { server.liveStreamCount }

    /// `Host: <host>:<port>` as a browser on this machine would send it.
    public var hostHeader: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Serves `deck` with the page of `publicDirectory`, or of a temporary folder holding `files`.
    public init(
        deck: Deck, options: Options = Options(), publicDirectory: URL? = nil, files: [String: String] = [:]
    ) async throws {
        let folder = publicDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("statedeck-live-\(UUID().uuidString)")
        ownFolder = publicDirectory == nil ? folder : nil
        if publicDirectory == nil {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, content) in files {
                try Data(content.utf8).write(to: folder.appendingPathComponent(name))
            }
        }
        host = options.host
        do {
            server = try await options.server(of: deck, publicDirectory: folder)
            port = try await server.start()
        } catch {
            ownFolder.map { try? FileManager.default.removeItem(at: $0) }
            throw error
        }
    }

    /// Starts a server over `deck`, runs `body`, then stops the server (also when `body` throws).
    public static func run(
        _ deck: Deck, _ options: Options = Options(), files: [String: String] = [:],
        _ body: (LiveDeckServer) async throws -> Void
    ) async throws {
        try await stopping(try await LiveDeckServer(deck: deck, options: options, files: files), with: { await $0.stop() },
                           after: body)
    }

    /// Stops the server and removes the folder it wrote; safe to call again.
    public func stop() async {
        await server.stop()
        ownFolder.map { try? FileManager.default.removeItem(at: $0) }
    }

    // MARK: Requests

    /// Sends `raw` exactly as given on a fresh connection, so no client normalizes it, and reads
    /// one answer.
    public func raw(_ raw: String, bodyless: Bool = false) async throws -> HTTPTestResponse {
        let (port, host) = (port, host)
        return try await offPool { try HTTPTestClient.send(raw, port: port, host: host, bodyless: bodyless) }
    }

    /// Sends a request with exactly these header lines (no `Host` added) and reads one answer;
    /// of `/events`, only the head.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]? = nil
    ) async throws -> HTTPTestResponse {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let body {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + (body ?? [])
        let (port, host) = (port, host)
        return try await offPool {
            let connection = try HTTPTestConnection(host: host, port: port)
            defer { connection.close() }
            try connection.send(bytes)
            if target.hasPrefix("/events") {
                let (status, headers) = try connection.readHead(until: .now + defaultWait)
                return HTTPTestResponse(status: status, headers: headers, body: [])
            }
            return try connection.readResponse(bodyless: method == "HEAD")
        }
    }

    /// A request a page of this server would send: the right `Host`, and `headers`.
    public func get(_ target: String, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await request("GET", target, headers: [("Host", hostHeader)] + headers)
    }

    /// POSTs `json` as is (so tests can send malformed JSON) with its content type.
    public func post(_ target: String, json: String? = nil, headers: [(String, String)] = []) async throws -> HTTPTestResponse {
        try await request(
            "POST", target,
            headers: [("Host", hostHeader)] + headers + (json == nil ? [] : [("Content-Type", "application/json")]),
            body: Array((json ?? "").utf8))
    }

    /// Opens `/events`, with `Last-Event-ID` when given.
    public func events(lastEventID: String? = nil) async throws -> AsyncSSEClient {
        let headers = lastEventID.map { [("Last-Event-ID", $0)] } ?? []
        return try await AsyncSSEClient.open(host: host, port: port, path: "/events", headers: headers)
    }

    /// Opens `count` streams of `/events` at once.
    public func events(count: Int) async throws -> [AsyncSSEClient] {
        try await AsyncSSEClient.open(count: count, host: host, port: port, path: "/events")
    }

    /// A logger that drops everything: the servers' logs would drown the test output.
    public static let quietLogger = Logger(label: "statedeck.test") { _ in SwiftLogNoOpLogHandler() }
}
