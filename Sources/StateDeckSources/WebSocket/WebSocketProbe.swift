import Threading

/// One WebSocket check with a deadline: the host's name resolved (`NameResolver`), then, on the
/// `ProbeLoop` (`WebSocketAttempt`), each address in turn until one connects, the TLS handshake
/// for `wss://`, the upgrade, and the message and its answer when there is one.
struct WebSocketProbe {
    /// An upgrade accepted, and the answer to the message.
    struct Exchange: Equatable {
        /// From the first address tried to the upgrade's answer.
        let upgradeTime: Duration
        /// The first message the server sent after the one sent, nil when none was sent.
        let answer: String?
        /// From the message sent to its answer.
        let answerTime: Duration?
    }

    enum Failure: Error, Equatable {
        /// No connection (`timedOut` also for a handshake or an upgrade that took longer than
        /// the timeout).
        case connect(TCPProbe.Failure)
        /// The connection failed once made.
        case failed(String)
        /// The TLS handshake failed; `untrusted` when the certificate did not verify.
        case tls(String, untrusted: Bool)
        /// The server answered the upgrade with another status than 101.
        case upgradeRefused(Int, String)
        /// 101, without the right `Sec-WebSocket-Accept`: the one it sent.
        case wrongAccept(String?)
        /// Not an HTTP answer (its first line), or one with a head too long.
        case notHTTP(String)
        /// No message came back before the deadline.
        case noAnswer
        /// The server closed the WebSocket (its close code, when it sent one) or the connection
        /// before answering.
        case closedBeforeAnswer(Int?)
        /// A frame RFC 6455 does not allow, or one too long.
        case badFrame(String)
    }

    let host: String
    let port: Int
    let secure: Bool
    /// The request's target: the path and query.
    let target: String
    /// The `Host` header: the host, and the port unless it is the scheme's.
    let authority: String
    let message: String?
    let timeout: Duration
    let trustedRoots: String?

    /// The exchange, or why there was none.
    ///
    /// - Throws: `CancellationError` at once when the task is cancelled.
    func run() async throws(CancellationError) -> Result<Exchange, Failure> {
        switch try await NameResolver.addresses(of: host, port: port).mapError({ Failure.connect(.unresolved($0.message)) }) {
        case .success(let addresses):
            let attempt = WebSocketAttempt(addresses: addresses, probe: self, upgrade: WebSocketUpgrade(host: authority, target: target))
            return try await ProbeLoop.shared.run(attempt)
        case .failure(let failure): return .failure(failure)
        }
    }
}
