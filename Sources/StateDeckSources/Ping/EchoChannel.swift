import CEpoll
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One `EchoSocket` on the probe loop, shared by every ping of its address family: it numbers
/// each request and hands each reply, and each error reported, to the ping that sent it.
///
/// The loop thread's alone.
final class EchoChannel: ProbeLoopClient {
    let socket: EchoSocket
    /// The ping and the index of its request waiting for each sequence number.
    private var waiting: [UInt16: (ping: PingAttempt, index: Int)] = [:]
    private var nextSequence: UInt16

    init(_ socket: EchoSocket, on loop: ProbeLoop) {
        self.socket = socket
        nextSequence = UInt16.random(in: 0...UInt16.max)
        loop.watch(socket.descriptor, for: EPOLLIN.rawValue, by: loop.add(self))
    }

    /// Sends request `index` of `ping` to `address`: its sequence number, or the `errno` of a
    /// request that did not leave.
    func send(_ index: Int, of ping: PingAttempt, to address: SocketAddress) -> Result<UInt16, SendError> {
        // More requests than sequence numbers waiting is 65,536 unanswered at once: the oldest
        // is taken over.
        while waiting[nextSequence] != nil, waiting.count < Int(UInt16.max) { nextSequence &+= 1 }
        let sequence = nextSequence
        nextSequence &+= 1
        let code = socket.send(sequence: sequence, to: address)
        guard code == 0 else { return .failure(SendError(code: code)) }
        waiting[sequence] = (ping, index)
        return .success(sequence)
    }

    /// Stops waiting for the reply to `sequence`.
    func forget(_ sequence: UInt16) {
        waiting[sequence] = nil
    }

    /// The `errno` of `sendto`.
    struct SendError: Error {
        let code: Int32
    }

    func socketReady(_ descriptor: Int32, events: UInt32, on loop: ProbeLoop) {
        let now = ContinuousClock.now
        if events & EPOLLERR.rawValue != 0 {
            while let message = socket.receiveError() { deliver(message, at: now, on: loop) }
        }
        if events & EPOLLIN.rawValue != 0 {
            while let message = socket.receive() { deliver(message, at: now, on: loop) }
        }
    }

    func deadlineCame(on loop: ProbeLoop) {}

    private func deliver(_ message: EchoSocket.Message, at now: ContinuousClock.Instant, on loop: ProbeLoop) {
        switch message {
        case .reply(let sequence):
            guard let (ping, index) = waiting.removeValue(forKey: sequence) else { return }
            ping.answered(index, at: now, on: loop)
        case .error(let sequence, let code, let reporter):
            guard let (ping, index) = waiting.removeValue(forKey: sequence) else { return }
            ping.failed(index, code: code, reporter: reporter, on: loop)
        }
    }
}

/// The probe loop's echo channels, one per address family, each opened when a ping first needs
/// it; one that could not be opened is tried again at the next ping, as the system's settings
/// may have changed.
///
/// Sendable to be handed to the loop; its channels are the loop thread's alone.
final class EchoChannels: @unchecked Sendable {
    /// The process's: a datagram socket where the system allows one, else a raw one.
    static let shared = EchoChannels { family in
        EchoSocket.open(family: family, identifier: UInt16(truncatingIfNeeded: getpid()))
    }

    private let open: @Sendable (Int32) -> Result<EchoSocket, EchoSocket.Refusal>
    private var channels: [Int32: EchoChannel] = [:]

    /// Channels whose sockets `open` gives, for an address family.
    init(opening open: @escaping @Sendable (Int32) -> Result<EchoSocket, EchoSocket.Refusal>) {
        self.open = open
    }

    /// The channel of `family`, opened now if it is not yet.
    func channel(for family: Int32, on loop: ProbeLoop) -> Result<EchoChannel, EchoSocket.Refusal> {
        if let channel = channels[family] { return .success(channel) }
        return open(family).map { socket in
            let channel = EchoChannel(socket, on: loop)
            channels[family] = channel
            return channel
        }
    }
}
