import CEpoll
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One WebSocket check on the `ProbeLoop`, a state machine over one socket: connecting (each
/// address in turn), the TLS handshake (`wss://`, `TLSChannel`), the upgrade request and its
/// answer, then the message and the server's answer to it, and a close frame, all before one
/// deadline. The outcome is nil when the check was cancelled.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class WebSocketAttempt: DeadlineProbe, @unchecked Sendable {
    let outcome = FirstResult<Result<WebSocketProbe.Exchange, WebSocketProbe.Failure>?>()
    let deadline: ContinuousClock.Instant
    var token: UInt64?
    private var dialer: AddressDialer
    private let probe: WebSocketProbe
    private let upgrade: WebSocketUpgrade
    private let started = ContinuousClock.now

    private enum Stage {
        case connecting
        case handshaking
        /// The upgrade request written (or being written), its answer's head awaited.
        case awaitingHead
        /// The message written (or being written), a message awaited.
        case awaitingAnswer
    }

    private var stage = Stage.connecting
    private var socket: Int32?
    /// The TLS session over `socket`, for `wss://`.
    private var channel: TLSChannel?
    /// Bytes to write before anything else.
    private var output: ArraySlice<UInt8> = []
    /// Bytes read and not yet understood.
    private var input: [UInt8] = []
    private var upgradeTime: Duration?
    private var sentAt: ContinuousClock.Instant?
    /// The parts of a message split over several frames.
    private var parts: [UInt8] = []

    init(addresses: [SocketAddress], probe: WebSocketProbe, upgrade: WebSocketUpgrade) {
        self.probe = probe
        self.upgrade = upgrade
        deadline = started + probe.timeout
        dialer = AddressDialer(addresses, deadline: deadline)
    }

    func begin(on loop: ProbeLoop) {
        connectNext(on: loop)
    }

    /// Ends the TLS session and closes the socket.
    func release(on loop: ProbeLoop) {
        channel = nil
        socket.map(loop.close)
        socket = nil
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        guard stage == .connecting else { return advance(on: loop) }
        let code = SocketAddress.connectionError(of: socket)
        guard code == 0 else {
            release(on: loop)
            dialer.note(code)
            return connectNext(on: loop)
        }
        connected(on: loop)
    }

    func deadlineCame(on loop: ProbeLoop) {
        settle(.failure(stage == .awaitingAnswer ? .noAnswer : .connect(.timedOut)), on: loop)
    }

    /// Starts connecting to the next address with time left; settles the outcome when none is left.
    private func connectNext(on loop: ProbeLoop) {
        guard let (descriptor, connected) = dialer.dialNext(on: loop, for: token) else {
            return settle(.failure(.connect(dialer.failure)), on: loop)
        }
        socket = descriptor
        if connected { self.connected(on: loop) }
    }

    /// Connected: the handshake for `wss://`, then the upgrade request.
    private func connected(on loop: ProbeLoop) {
        guard let socket else { return }
        if probe.secure {
            switch TLSChannel.make(socket: socket, host: probe.host, trustedRoots: probe.trustedRoots) {
            case .success(let channel): self.channel = channel
            case .failure(let failure): return settle(.failure(.tls(failure.reason, untrusted: false)), on: loop)
            }
            stage = .handshaking
        } else {
            output = upgrade.request[...]
            stage = .awaitingHead
        }
        advance(on: loop)
    }

    /// Does all it can until the socket would block, then waits for the readiness it needs; or
    /// settles the outcome.
    private func advance(on loop: ProbeLoop) {
        while true {
            if stage == .handshaking, let channel {
                switch channel.handshake() {
                case .done:
                    output = upgrade.request[...]
                    stage = .awaitingHead
                case let other: return wait(for: other, on: loop, closed: .tls("the server closed the connection", untrusted: false))
                }
            }
            if !output.isEmpty {
                switch send(output) {
                case .done(let count): output = output.dropFirst(count)
                case let other: return wait(for: other, on: loop, closed: .closedBeforeAnswer(nil))
                }
                continue
            }
            switch understand() {
            case true?: return finish(on: loop)
            case nil: continue
            case false?: break
            }
            switch receive() {
            case .done: continue
            case .closed where stage == .awaitingHead: return settle(.failure(.notHTTP("the connection closed")), on: loop)
            case let other: return wait(for: other, on: loop, closed: .closedBeforeAnswer(nil))
            }
        }
    }

    /// Makes what it can of `input`: true once the outcome is settled, false when more must be
    /// read, nil when there is something to write first.
    private func understand() -> Bool? {
        switch stage {
        case .connecting, .handshaking:
            return false
        case .awaitingHead:
            guard let length = WebSocketUpgrade.headLength(in: input) else {
                guard input.count <= WebSocketUpgrade.headLimit else {
                    return offer(.failure(.notHTTP("a head longer than \(WebSocketUpgrade.headLimit) bytes")))
                }
                return false
            }
            let answer = upgrade.judge(Array(input.prefix(length)))
            input.removeFirst(length)
            switch answer {
            case .accepted: break
            case .refused(let status, let reason): return offer(.failure(.upgradeRefused(status, reason)))
            case .wrongAccept(let accept): return offer(.failure(.wrongAccept(accept)))
            case .notHTTP(let line): return offer(.failure(.notHTTP(line)))
            }
            upgradeTime = ContinuousClock.now - started
            guard let message = probe.message else { return close(answer: nil) }
            output = WebSocketFrame(isFinal: true, opcode: .text, payload: Array(message.utf8)).written(mask: Self.mask())[...]
            sentAt = ContinuousClock.now
            stage = .awaitingAnswer
            return nil
        case .awaitingAnswer:
            while true {
                let frame: WebSocketFrame?
                do { frame = try WebSocketFrame.read(from: &input) } catch {
                    return offer(.failure(.badFrame(Self.describe(error))))
                }
                guard let frame else { return false }
                switch frame.opcode {
                case .text, .binary, .continuation:
                    parts += frame.payload
                    if frame.isFinal { return close(answer: String(decoding: parts, as: UTF8.self)) }
                case .ping:
                    output += WebSocketFrame(isFinal: true, opcode: .pong, payload: frame.payload).written(mask: Self.mask())
                    return nil
                case .pong:
                    continue
                case .close:
                    let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : nil
                    return offer(.failure(.closedBeforeAnswer(code)))
                }
            }
        }
    }

    /// Settles the exchange, with the message's answer, and writes a close frame (1000, normal
    /// closure) as far as the socket takes it at once: the server's own close is not waited for.
    private func close(answer: String?) -> Bool {
        let now = ContinuousClock.now
        let exchange = WebSocketProbe.Exchange(upgradeTime: upgradeTime ?? now - started, answer: answer,
                                               answerTime: sentAt.map { now - $0 })
        let frame = WebSocketFrame(isFinal: true, opcode: .close, payload: [0x03, 0xE8]).written(mask: Self.mask())
        _ = send(output + frame)
        return offer(.success(exchange))
    }

    private func offer(_ result: Result<WebSocketProbe.Exchange, WebSocketProbe.Failure>) -> Bool {
        outcome.offer(result)
        return true
    }

    /// Waits for the readiness `progress` asks for, or settles its failure (`closed` for a
    /// connection the server closed).
    private func wait(for progress: TLSChannel.Progress, on loop: ProbeLoop, closed: WebSocketProbe.Failure) {
        let events: UInt32
        switch progress {
        case .done: return advance(on: loop)
        case .wantsRead: events = EPOLLIN.rawValue
        case .wantsWrite: events = EPOLLOUT.rawValue
        case .closed: return settle(.failure(closed), on: loop)
        case .failed(let reason, let untrusted):
            return settle(.failure(stage == .handshaking ? .tls(reason, untrusted: untrusted) : .failed(reason)), on: loop)
        }
        guard let socket else { return }
        let watched = loop.watch(socket, for: events, by: token ?? 0)
        if watched != 0 { settle(.failure(.failed(String(errno: watched))), on: loop) }
    }

    /// Writes what the socket takes of `bytes`, through the TLS session when there is one.
    private func send(_ bytes: ArraySlice<UInt8>) -> TLSChannel.Progress {
        if let channel { return channel.write(bytes) }
        guard let socket else { return .closed }
        let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return count >= 0 ? .done(count) : Self.progress(errno: errno, waiting: .wantsWrite)
    }

    /// Reads what came into `input`, through the TLS session when there is one.
    private func receive() -> TLSChannel.Progress {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let progress = chunk.withUnsafeMutableBytes { buffer -> TLSChannel.Progress in
            if let channel { return channel.read(into: buffer) }
            guard let socket else { return .closed }
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            return count > 0 ? .done(count) : count == 0 ? .closed : Self.progress(errno: errno, waiting: .wantsRead)
        }
        if case .done(let count) = progress { input += chunk.prefix(count) }
        return progress
    }

    private static func progress(errno code: Int32, waiting: TLSChannel.Progress) -> TLSChannel.Progress {
        code == EAGAIN || code == EINTR ? waiting : .failed(String(errno: code), untrusted: false)
    }

    /// Four random bytes, a client frame's mask.
    private static func mask() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func describe(_ error: WebSocketFrame.ReadError) -> String {
        switch error {
        case .malformed(let reason): reason
        case .tooLong(let length): "a frame of \(length) bytes, over \(WebSocketFrame.payloadLimit)"
        }
    }
}
