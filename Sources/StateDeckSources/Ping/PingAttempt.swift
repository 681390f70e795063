import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One ping on the `ProbeLoop`: `count` echo requests to one address, `interval` apart, each
/// answered within `timeout` or lost. The outcome is nil when the ping was cancelled.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class PingAttempt: ProbeLoopTask, @unchecked Sendable {
    let outcome = FirstResult<Result<PingProbe.Report, PingProbe.Failure>?>()
    private let address: SocketAddress
    private let count: Int
    private let interval: Duration
    private let timeout: Duration
    private let channels: EchoChannels
    private var token: UInt64?
    private var channel: EchoChannel?
    /// Each request's sequence number and when it left, while it waits for its reply.
    private var waiting: [Int: (sequence: UInt16, sentAt: ContinuousClock.Instant)] = [:]
    private var roundTrips: [Duration] = []
    /// The most recent error reported about a request.
    private var reported: PingProbe.Unreachable?
    private var sent = 0
    private var nextSendAt = ContinuousClock.now

    init(address: SocketAddress, count: Int, interval: Duration, timeout: Duration, channels: EchoChannels) {
        self.address = address
        self.count = count
        self.interval = interval
        self.timeout = timeout
        self.channels = channels
    }

    func start(on loop: ProbeLoop) {
        guard !outcome.isSettled else { return }
        switch channels.channel(for: address.family, on: loop) {
        case .success(let channel):
            self.channel = channel
            token = loop.add(self)
            sendNext(on: loop)
        case .failure(let refusal):
            outcome.offer(.failure(.notPermitted(refusal.message)))
        }
    }

    func cancel(on loop: ProbeLoop) {
        finish(on: loop)
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {}

    /// The next request is due, or a request's time is up.
    func deadlineCame(on loop: ProbeLoop) {
        let now = ContinuousClock.now
        for (index, request) in waiting where request.sentAt + timeout <= now {
            channel?.forget(request.sequence)
            waiting[index] = nil
        }
        if sent < count, nextSendAt <= now { return sendNext(on: loop) }
        proceed(on: loop)
    }

    /// Request `index` was answered, the reply read at `now`.
    func answered(_ index: Int, at now: ContinuousClock.Instant, on loop: ProbeLoop) {
        guard let request = waiting.removeValue(forKey: index) else { return }
        roundTrips.append(now - request.sentAt)
        proceed(on: loop)
    }

    /// An error (`code`, an `errno`) was reported about request `index`, by `reporter`.
    func failed(_ index: Int, code: Int32, reporter: String?, on loop: ProbeLoop) {
        guard waiting.removeValue(forKey: index) != nil else { return }
        reported = PingProbe.Unreachable(reason: String(errno: code), reporter: reporter)
        proceed(on: loop)
    }

    private func sendNext(on loop: ProbeLoop) {
        guard let channel else { return }
        switch channel.send(sent, of: self, to: address) {
        case .success(let sequence):
            waiting[sent] = (sequence, ContinuousClock.now)
        case .failure(let error) where error.code == ENETUNREACH:
            return settle(.failure(.noRoute(String(errno: error.code))), on: loop)
        case .failure(let error) where error.code == EHOSTUNREACH:
            reported = PingProbe.Unreachable(reason: String(errno: error.code), reporter: nil)
        case .failure(let error) where error.code == EAGAIN || error.code == ENOBUFS:
            // The socket's buffer is full, thousands of requests going out at once: this one is lost.
            break
        case .failure(let error):
            return settle(.failure(.failed(String(errno: error.code))), on: loop)
        }
        sent += 1
        nextSendAt = ContinuousClock.now + interval
        proceed(on: loop)
    }

    /// Waits for the next request due or the first to time out; settles once every request was
    /// answered, failed or timed out.
    private func proceed(on loop: ProbeLoop) {
        guard let token else { return }
        let expiry = waiting.values.map { $0.sentAt + timeout }.min()
        guard sent < count || expiry != nil else {
            return settle(.success(PingProbe.Report(address: address.numericHost, sent: count, roundTrips: roundTrips,
                                                    unreachable: reported)), on: loop)
        }
        let next = sent < count ? nextSendAt : nil
        loop.setDeadline([next, expiry].compactMap(\.self).min(), for: token)
    }

    private func settle(_ result: Result<PingProbe.Report, PingProbe.Failure>, on loop: ProbeLoop) {
        outcome.offer(result)
        finish(on: loop)
    }

    /// Forgets the requests still waiting and leaves the loop.
    private func finish(on loop: ProbeLoop) {
        for request in waiting.values { channel?.forget(request.sequence) }
        waiting = [:]
        token.map(loop.remove)
        token = nil
    }
}
