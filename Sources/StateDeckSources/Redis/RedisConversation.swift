import CEpoll
import Locking
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One redis check on the `ProbeLoop`: a connection to each address in turn until one connects,
/// then its commands sent at once (`AUTH` when the URL has a password, `SELECT` for a database
/// number, the check's command, `INFO server` for the version) and their replies read, all before
/// one deadline. The outcome is nil when the check was cancelled; the socket is closed whatever
/// it came to.
///
/// Sendable for `outcome`, which a cancelling task may settle; the rest is the loop's thread's.
final class RedisConversation: DeadlineProbe, @unchecked Sendable {
    let outcome = FirstResult<Result<RedisAnswer, DatabaseFailure>?>()
    let deadline: ContinuousClock.Instant
    var token: UInt64?
    private var dialer: AddressDialer
    /// The commands, in the order they are sent and answered.
    private let commands: [Command]
    private var socket: Int32?
    /// Whether the socket's connection was made: the commands are then sent.
    private var connected = false
    /// What is left to send once connected.
    private var unsent: ArraySlice<UInt8> = []
    private var sentAt = ContinuousClock.now
    private var received: [UInt8] = []
    /// The replies read, one per command so far.
    private var replies: [RESPReply] = []
    private var commandTime: Duration = .zero

    /// What each command sent is for: the failure its error reply comes to.
    enum Command {
        case authenticate
        case select
        case check
        case info
    }

    /// A server's replies are read up to this many bytes: a check's command is meant to answer
    /// briefly, and one answering more is not read on.
    static let replyLimit = 1 << 20

    init(addresses: [SocketAddress], commands: [(Command, [String])], timeout: Duration) {
        self.commands = commands.map(\.0)
        unsent = ArraySlice(commands.flatMap { RESPReply.command($0.1) })
        deadline = .now + timeout
        dialer = AddressDialer(addresses, deadline: deadline)
    }

    func begin(on loop: ProbeLoop) {
        connectNext(on: loop)
    }

    func release(on loop: ProbeLoop) {
        socket.map(loop.close)
        socket = nil
    }

    func socketReady(_ socket: Int32, events: UInt32, on loop: ProbeLoop) {
        if !connected {
            let code = SocketAddress.connectionError(of: socket)
            guard code == 0 else {
                dialer.note(code)
                return connectNext(on: loop)
            }
            connected = true
            sentAt = .now
        }
        if !unsent.isEmpty, events & EPOLLOUT.rawValue != 0 { send(on: loop) }
        if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { receive(on: loop) }
    }

    func deadlineCame(on loop: ProbeLoop) {
        settle(.failure(.timedOut), on: loop)
    }

    /// Starts connecting to the next address with time left, its socket watched until it is
    /// writable (or readable: a server may refuse at once); settles the most telling failure when
    /// none is left.
    private func connectNext(on loop: ProbeLoop) {
        release(on: loop)
        guard let (descriptor, connected) = dialer.dialNext(on: loop, for: token, watching: EPOLLOUT.rawValue | EPOLLIN.rawValue) else {
            return settle(.failure(DatabaseFailure(dialer.failure)), on: loop)
        }
        socket = descriptor
        guard connected else { return }
        let watched = loop.watch(descriptor, for: EPOLLOUT.rawValue | EPOLLIN.rawValue, by: token ?? 0)
        guard watched == 0 else {
            dialer.note(watched)
            return connectNext(on: loop)
        }
        self.connected = true
        sentAt = .now
    }

    /// Sends what is left of the commands; once all left, the socket is watched for replies alone.
    private func send(on loop: ProbeLoop) {
        guard let socket else { return }
        let count = unsent.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count >= 0 else {
            let code = errno
            guard code == EAGAIN || code == EINTR else { return settle(.failure(.connectFailed(String(errno: code))), on: loop) }
            return
        }
        unsent = unsent.dropFirst(count)
        if unsent.isEmpty { loop.watch(socket, for: EPOLLIN.rawValue, by: token ?? 0) }
    }

    /// Reads what came and the replies it completes; settles at an error reply, once every
    /// command was answered, or when the server closed the connection first.
    private func receive(on loop: ProbeLoop) {
        guard let socket else { return }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else {
            let code = errno
            if count < 0, code == EAGAIN || code == EINTR { return }
            return settle(.failure(.connectFailed(count == 0 ? "the server closed the connection" : String(errno: code))), on: loop)
        }
        received += chunk.prefix(count)
        guard received.count <= Self.replyLimit else {
            return settle(.failure(.invalidAnswer("the replies are larger than \(Self.replyLimit / 1024) KiB")), on: loop)
        }
        do {
            while let (reply, length) = try RESPReply.parse(received[...]) {
                received.removeFirst(length)
                // A user whose ACL denies INFO still gets the command's reply, without the version.
                if case .error(let words) = reply, commands[replies.count] != .info {
                    return settle(.failure(failure(of: words, to: commands[replies.count])), on: loop)
                }
                if commands[replies.count] == .check { commandTime = .now - sentAt }
                replies.append(reply)
                if replies.count == commands.count { return settle(.success(answer()), on: loop) }
            }
        } catch {
            settle(.failure(.invalidAnswer(error.reason)), on: loop)
        }
    }

    /// The answer of the replies, all come.
    private func answer() -> RedisAnswer {
        let reply = zip(commands, replies).first { $0.0 == .check }?.1
        let info = zip(commands, replies).first { $0.0 == .info }.flatMap { if case .bulk(let text) = $0.1 { text } else { nil } } ?? ""
        let version = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("redis_version:") }
            .map { "Redis " + $0.dropFirst("redis_version:".count).trimmed() } ?? "Redis"
        let isNumber = if case .integer = reply { true } else { false }
        return RedisAnswer(version: version, reply: reply?.text, isNumber: isNumber, time: commandTime)
    }

    /// The failure an error reply (`words`) to `command` comes to: a refusal of the credentials
    /// whatever it answered, an unknown database number, or the command's own error.
    private func failure(of words: String, to command: Command) -> DatabaseFailure {
        let code = words.prefix { !$0.isWhitespace }
        if ["NOAUTH", "WRONGPASS", "NOPERM", "DENIED"].contains(code) || command == .authenticate { return .unauthorized(words) }
        return command == .select ? .unknownDatabase(words) : .queryFailed(words)
    }
}
