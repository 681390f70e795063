import EventStream
import Locking
import Logging
import MicroHTTP
import StateDeck

/// The dashboard: one deck served over HTTP, its changes streamed to every open page.
public final class DeckServer: Sendable {
    public let configuration: ServerConfiguration
    private let current: Locked<Deck>
    private let mirror: StateMirror
    private let http: HTTPServer
    private let hub: EventHub
    private let gate: RequestGate

    /// Prepares the server; nothing is bound until `start()`.
    ///
    /// - Throws: ``DeckServerError/tokenRequired(host:)`` when `configuration` listens beyond
    ///   loopback without a token: whoever reaches the port could force states and run recovery
    ///   commands.
    public init(deck: Deck, configuration: ServerConfiguration,
                logger: Logger = Logger(label: "statedeck")) async throws {
        guard configuration.isLoopback || configuration.token != nil else {
            throw DeckServerError.tokenRequired(host: configuration.host)
        }
        self.configuration = configuration
        let current = Locked(deck)
        self.current = current
        var hubConfiguration = EventHub.Configuration()
        hubConfiguration.pingInterval = configuration.pingInterval
        hub = EventHub(configuration: hubConfiguration)
        let mirror = StateMirror(debug: configuration.debug, pingInterval: configuration.pingInterval, hub: hub)
        self.mirror = mirror
        await mirror.follow(deck)

        let files = try StaticFiles(directory: configuration.publicDirectory)
        var router = Router { request, _ in .response(files.respond(to: request)) }
        APIRoutes(deck: { current.current }, mirror: mirror, debugEnabled: configuration.debug,
                  streamCapacity: configuration.streamCapacity)
            .register(on: &router)
        gate = RequestGate(configuredHost: configuration.host, token: configuration.token)
        http = HTTPServer(configuration: configuration.http,
                          responder: SecureResponder(gate: gate, routes: router, files: files), logger: logger)
    }

    /// Binds, starts the deck's loads and returns the port; the server then accepts connections.
    @discardableResult
    public func start() async throws -> Int {
        let port = try http.start()
        gate.bind(port: port)
        hub.startPinging()
        await deck.start()
        return port
    }

    /// The deck being served.
    public var deck: Deck { current.current }

    /// Serves `newDeck` in place of the current deck, which is stopped. Every open page gets the
    /// new deck as a `snapshot` event.
    public func replaceDeck(with newDeck: Deck) async {
        let old = current.withLock { deck in
            defer { deck = newDeck }
            return deck
        }
        await old.stop()
        await mirror.follow(newDeck, announce: true)
        await newDeck.start()
    }

    /// The bound port (after `start()`).
    public var port: Int { http.port }

    /// Open SSE streams.
    public var liveStreamCount: Int { http.liveStreamCount }

    /// Ends every stream, stops accepting and cancels the deck's work.
    public func stop() async {
        hub.close()
        http.stop()
        await current.current.stop()
    }
}
