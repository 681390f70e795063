import FoundationEssentials
import Locking
import MicroHTTP
import StateDeck

/// The addresses a job pings its heartbeat panel at, by any method a `curl` or `wget` line uses
/// (GET, HEAD, POST):
///
/// | path | what it says |
/// | --- | --- |
/// | `/ping/{key}` | the run ended well |
/// | `/ping/{key}/start` | a run began |
/// | `/ping/{key}/fail` | the run failed |
/// | `/ping/{key}/{exit-status}` | the run ended with this status (0 to 255): well for 0, failed otherwise |
///
/// The key is the only credential a ping needs (the gate lets these paths through without the
/// dashboard's token or `Host`), and reaches nothing but its panel. A key no panel has is a 404,
/// as a panel that does not exist; each key may ping `burst` times at once, then once a second.
/// The body's first ``bodyLimit`` bytes, as text, are the run's info or its failure's detail.
/// A ping is answered once the deck took it, gathered with the others that came meanwhile
/// (``PingGathering``).
struct PingRoutes: Sendable {
    /// Work that answers by calling the function it is handed, once.
    typealias Answering = @Sendable (_ answer: @escaping @Sendable (HTTPResponse) -> Void) -> Void

    let deck: @Sendable () -> Deck
    /// Runs an action here, or where the deck runs (a host's process).
    let action: @Sendable (HTTPRequest, @escaping Answering) -> HTTPReply
    private let allowance = Locked<[String: PingAllowance]>([:])
    private let gathering = PingGathering()

    init(deck: @escaping @Sendable () -> Deck, action: @escaping @Sendable (HTTPRequest, @escaping Answering) -> HTTPReply) {
        self.deck = deck
        self.action = action
    }

    static let bodyLimit = 10 * 1024
    /// The answer to a ping the deck took: one response, built once and sent to every ping.
    static let taken = SharedBytes(Array(#"{"ok":true}"#.utf8))
    static let burst = 10.0
    static let refillPerSecond = 1.0

    func register(on router: inout Router) {
        for method in [HTTPMethod.get, .post] {
            router.on(method, "/ping/{key}") { request, parameters in
                ping(request, key: parameters["key"] ?? "", .success)
            }
            router.on(method, "/ping/{key}/{signal}") { request, parameters in
                guard let signal = Self.signal(parameters["signal"] ?? "") else {
                    return .response(.apiError(.notFound, code: "not_found",
                                               message: "a ping ends in /start, /fail or an exit status from 0 to 255"))
                }
                return ping(request, key: parameters["key"] ?? "", signal)
            }
        }
    }

    /// `start`, `fail`, or an exit status.
    static func signal(_ text: String) -> PingSignal? {
        switch text {
        case "start": return .start
        case "fail": return .failure(exitStatus: nil)
        default:
            guard text.utf8.count <= 3, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let status = Int(text), status <= 255 else { return nil }
            return status == 0 ? .success : .failure(exitStatus: status)
        }
    }

    private func ping(_ request: HTTPRequest, key: String, _ signal: PingSignal) -> HTTPReply {
        guard let panel = deck().pingTargets["/ping/\(key)"] else {
            return .response(.apiError(.notFound, code: "not_found", message: "no panel has this ping key"))
        }
        if let wait = allowance.withLock({ $0[key, default: PingAllowance()].take(now: .now) }) {
            var refused = HTTPResponse.apiError(.tooManyRequests, code: "too_many_pings",
                                                message: "this key pinged too often; ping again in \(wait) s")
            refused.headers.set("Retry-After", "\(wait)")
            return .response(refused)
        }
        let ping = Ping(panel: panel, signal, body: String(decoding: request.body.prefix(Self.bodyLimit), as: UTF8.self))
        return action(request) { [gathering, deck] answer in
            gathering.ping(ping, on: deck()) { outcome in
                switch outcome {
                case .success: answer(.api(.ok, Self.taken))
                case .failure(let error): answer(error.response)
                }
            }
        }
    }
}

/// How often one key may ping: `burst` at once, then `refillPerSecond`.
struct PingAllowance {
    var tokens = PingRoutes.burst
    var counted = ContinuousClock.now

    /// Takes a ping's token; when none is left, the whole seconds until one is.
    mutating func take(now: ContinuousClock.Instant) -> Int? {
        tokens = min(PingRoutes.burst, tokens + (now - counted) / .seconds(1) * PingRoutes.refillPerSecond)
        counted = now
        guard tokens < 1 else {
            tokens -= 1
            return nil
        }
        return Int(((1 - tokens) / PingRoutes.refillPerSecond).rounded(.up))
    }
}
