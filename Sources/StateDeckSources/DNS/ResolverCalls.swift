// The C boundary of the dns source: every call into c-ares, which asks, and into libresolv, which
// reads the answer, and the `ares_callback` c-ares answers through. A query blocks its thread until
// it ends, so it runs on a query thread (`DNSQueries`), never on Swift's shared pool.

import CAres

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One question to DNS, asked through a c-ares channel of its own: queries on several threads
/// share nothing, and each can aim at its own server.
struct ResolverQuery: Sendable {
    let name: String
    let type: DNSRecordType
    /// Nil for the system's servers, those of /etc/resolv.conf.
    let server: DNSServer?
    let timeout: Duration

    /// Tries per server: the second waits twice as long as the first (c-ares doubles each round).
    static let tries: Int32 = 2

    /// Asks, waits at most `timeout`, and reads the answer, on the calling thread.
    func run() -> DNSOutcome {
        guard Self.libraryStarted else { return .failed("c-ares could not start") }
        let deadline = ContinuousClock.now + timeout
        guard let channel = openChannel() else { return .failed("c-ares could not read the system's DNS settings") }
        defer { ares_destroy(channel) }
        if let server, ares_set_servers_ports_csv(channel, server.description) != ARES_SUCCESS {
            return .failed("c-ares refused the server \(server)")
        }
        var reply = Reply()
        withUnsafeMutablePointer(to: &reply) { pending in
            ares_set_socket_callback(channel, noteSocket, pending)
            ares_query(channel, name, Int32(ns_c_in.rawValue), Int32(type.code), receiveAnswer, pending)
            while !pending.pointee.isDone {
                guard ContinuousClock.now < deadline else {
                    // Answers the query with ARES_ECANCELLED, through the callback, before returning.
                    ares_cancel(channel)
                    break
                }
                process(channel, until: deadline)
            }
        }
        return outcome(of: reply)
    }

    /// What c-ares handed the callback.
    fileprivate struct Reply {
        var isDone = false
        var status = ARES_SUCCESS
        var answer: [UInt8] = []
        /// Whether c-ares opened a TCP connection: it does only to ask again for an answer too
        /// large for UDP (truncated, or over 512 bytes), so a failure after it is that answer's.
        var askedOverTCP = false
    }

    /// `ares_library_init`, once for the process, before any channel.
    private static let libraryStarted = ares_library_init(ARES_LIB_INIT_ALL) == ARES_SUCCESS

    /// `ares_init_options`: a channel with the system's servers and settings, and the resolver's
    /// own timing set from the panel's timeout: the first try of each server waits a third of
    /// it, the second try two thirds, so that one server's two tries fill it.
    ///
    /// `ARES_FLAG_NOCHECKRESP`: a SERVFAIL, NOTIMP or REFUSED answer ends the query with its own
    /// status. Without it c-ares 1.18 tries the next server and, once none is left, ends with
    /// `ARES_ECONNREFUSED`, as if nothing had answered.
    private func openChannel() -> ares_channel? {
        var options = ares_options()
        options.flags = ARES_FLAG_NOCHECKRESP
        options.timeout = Int32(clamping: max(1, timeout.milliseconds / 3))
        options.tries = Self.tries
        var channel: ares_channel?
        let settings = ARES_OPT_FLAGS | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES
        guard ares_init_options(&channel, &options, settings) == ARES_SUCCESS else { return nil }
        return channel
    }

    /// `ares_getsock`, `ares_timeout`, `poll` and `ares_process_fd`: waits until a socket of the
    /// channel is ready, its next retransmission is due, or `deadline`, and lets c-ares go on.
    private func process(_ channel: ares_channel, until deadline: ContinuousClock.Instant) {
        let count = Int(ARES_GETSOCK_MAXNUM)
        var sockets = [ares_socket_t](repeating: ARES_SOCKET_BAD, count: count)
        let bits = ares_getsock(channel, &sockets, Int32(count))
        var ready: [pollfd] = (0..<count).compactMap { index in
            let readable = bits & (1 << index) != 0, writable = bits & (1 << (index + count)) != 0
            guard readable || writable else { return nil }
            return pollfd(fd: sockets[index], events: Int16((readable ? POLLIN : 0) | (writable ? POLLOUT : 0)), revents: 0)
        }
        let left = deadline - ContinuousClock.now
        var longest = timeval(tv_sec: Int(left.components.seconds), tv_usec: Int(left.components.attoseconds / 1_000_000_000_000))
        var next = timeval()
        let due = ares_timeout(channel, &longest, &next)?.pointee ?? longest
        let milliseconds = max(0, Int32(clamping: due.tv_sec * 1000 + (due.tv_usec + 999) / 1000))
        guard poll(&ready, nfds_t(ready.count), milliseconds) > 0 else {
            // A timeout (or a signal): c-ares retransmits, or gives up, what is due.
            ares_process_fd(channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD)
            return
        }
        for socket in ready where socket.revents != 0 {
            let readable = socket.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0
            let writable = socket.revents & Int16(POLLOUT) != 0
            ares_process_fd(channel, readable ? socket.fd : ARES_SOCKET_BAD, writable ? socket.fd : ARES_SOCKET_BAD)
        }
    }

    /// The outcome c-ares' status and answer make; `ares_strerror` says what the rarer statuses mean.
    private func outcome(of reply: Reply) -> DNSOutcome {
        if reply.askedOverTCP, let reason = Self.tcpFailure(reply.status) {
            return .tooLarge("too large for UDP; over TCP, \(reason)")
        }
        switch reply.status {
        case ARES_SUCCESS, ARES_ENODATA:
            return reply.answer.withUnsafeBufferPointer { Self.read($0, type: type) }
        case ARES_ENOTFOUND: return .answered(.nameError, [])
        case ARES_ESERVFAIL: return .answered(.serverFailure, [])
        case ARES_EREFUSED: return .answered(.refused, [])
        case ARES_EFORMERR: return .answered(.other(1), [])
        case ARES_ENOTIMP: return .answered(.other(4), [])
        case ARES_ETIMEOUT, ARES_ECANCELLED: return .timedOut
        case ARES_ECONNREFUSED: return .unreachable("nothing answers DNS there (connection refused)")
        case ARES_EBADNAME: return .failed("\(name) cannot be asked for: it is not a domain name")
        case ARES_EBADRESP: return .unreadable("the answer is not a DNS message")
        default: return .failed(String(cString: ares_strerror(reply.status)))
        }
    }

    /// What became of the query over TCP, for the statuses that leave it without an answer.
    private static func tcpFailure(_ status: Int32) -> String? {
        switch status {
        case ARES_ECONNREFUSED: "nothing answers DNS there (connection refused)"
        case ARES_ETIMEOUT, ARES_ECANCELLED: "no answer came in time"
        case ARES_EBADRESP: "the answer is not a DNS message"
        default: nil
        }
    }

    // MARK: - The answer

    /// `ns_initparse` and `ns_parserr`: the answer's records of `type`, in class IN. Others (a
    /// CNAME an A answer goes through) are left out.
    private static func read(_ answer: UnsafeBufferPointer<UInt8>, type: DNSRecordType) -> DNSOutcome {
        guard let base = answer.baseAddress else { return .unreadable("the answer is empty") }
        var message = ns_msg()
        guard ns_initparse(base, Int32(answer.count), &message) == 0 else {
            return .unreadable("the answer is not a DNS message")
        }
        // `_counts` by section: question, answer (`ns_s_an`), authority, additional.
        let count = Int(message._counts.1)
        var records: [DNSRecord] = []
        for index in 0..<count {
            var record = ns_rr()
            guard ns_parserr(&message, ns_s_an, Int32(index), &record) == 0 else {
                return .unreadable("record \(index + 1) of the answer cannot be read")
            }
            guard Int(record.type) == type.code, record.rr_class == UInt16(ns_c_in.rawValue) else { continue }
            let data = UnsafeBufferPointer(start: record.rdata, count: Int(record.rdlength))
            guard let parsed = Self.record(data, type: type, in: answer) else {
                return .unreadable("a \(type.rawValue) record of the answer cannot be read")
            }
            records.append(parsed)
        }
        return .answered(.noError, records)
    }

    /// One record's data as a value, nil when it is not what its type holds.
    private static func record(_ data: UnsafeBufferPointer<UInt8>, type: DNSRecordType,
                               in message: UnsafeBufferPointer<UInt8>) -> DNSRecord? {
        switch type {
        case .a, .aaaa:
            return address(data, family: type == .a ? AF_INET : AF_INET6).map { DNSRecord(value: $0) }
        case .cname, .ns:
            return name(at: data, in: message).map { DNSRecord(value: $0) }
        case .mx:
            guard data.count > 2 else { return nil }
            let preference = Int(data[0]) << 8 | Int(data[1])
            return name(at: UnsafeBufferPointer(rebasing: data.dropFirst(2)), in: message)
                .map { DNSRecord(value: $0, preference: preference) }
        case .txt:
            return texts(data).map { DNSRecord(value: $0.joined()) }
        }
    }

    /// `inet_ntop`: an A record's 4 bytes or an AAAA record's 16 as text.
    private static func address(_ data: UnsafeBufferPointer<UInt8>, family: Int32) -> String? {
        guard data.count == (family == AF_INET ? 4 : 16), let bytes = data.baseAddress else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return nil }
        return string(text)
    }

    /// `dn_expand`: the domain name at `data`, which may point back into the rest of `message`,
    /// without its final dot.
    private static func name(at data: UnsafeBufferPointer<UInt8>, in message: UnsafeBufferPointer<UInt8>) -> String? {
        guard let start = data.baseAddress, let base = message.baseAddress else { return nil }
        var text = [CChar](repeating: 0, count: Int(NS_MAXDNAME))
        guard dn_expand(base, base + message.count, start, &text, Int32(text.count)) > 0 else { return nil }
        return string(text)
    }

    /// The text before the first NUL of a buffer C wrote.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A TXT record's character strings, each a length byte and that many bytes.
    private static func texts(_ data: UnsafeBufferPointer<UInt8>) -> [String]? {
        var strings: [String] = []
        var offset = 0
        while offset < data.count {
            let end = offset + 1 + Int(data[offset])
            guard end <= data.count else { return nil }
            strings.append(String(decoding: data[(offset + 1)..<end], as: UTF8.self))
            offset = end
        }
        return strings
    }
}

/// `ares_callback`: keeps the status and a copy of the answer (valid only during the call) in the
/// `Reply` the query was given. Called on the query's thread, from `ares_process_fd` or `ares_cancel`.
private func receiveAnswer(
    _ argument: UnsafeMutableRawPointer?, _ status: Int32, _ timeouts: Int32, _ answer: UnsafeMutablePointer<UInt8>?,
    _ length: Int32
) {
    guard let reply = argument?.assumingMemoryBound(to: ResolverQuery.Reply.self) else { return }
    reply.pointee.status = status
    reply.pointee.answer = answer.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
    reply.pointee.isDone = true
}

#if canImport(Glibc)
/// `SOCK_STREAM`, named through Glibc: an unqualified one here is found in c-ares' headers, and a
/// release build (one compilation of the whole module) then hides it from the module's other files.
private let streamSocket = Int32(Glibc.SOCK_STREAM.rawValue)
#elseif canImport(Musl)
private let streamSocket = Int32(Musl.SOCK_STREAM)
#endif

/// `ares_sock_create_callback`: notes in the query's `Reply` that c-ares opened a TCP connection.
/// Returns 0, which lets c-ares use the socket.
private func noteSocket(_ socket: ares_socket_t, _ type: Int32, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    if type == streamSocket {
        argument?.assumingMemoryBound(to: ResolverQuery.Reply.self).pointee.askedOverTCP = true
    }
    return 0
}

extension DNSRecordType {
    /// The type's number in a DNS message (`ns_t_a` and the like).
    var code: Int {
        let type: ns_type = switch self {
        case .a: ns_t_a
        case .aaaa: ns_t_aaaa
        case .cname: ns_t_cname
        case .mx: ns_t_mx
        case .txt: ns_t_txt
        case .ns: ns_t_ns
        }
        return Int(type.rawValue)
    }
}
