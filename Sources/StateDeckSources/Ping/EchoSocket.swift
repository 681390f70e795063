#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Threading

/// A non-blocking ICMP socket of one address family that sends echo requests and reads their
/// replies and the errors reported about them (`IP_RECVERR`: a router's "host unreachable").
///
/// Two kinds: a datagram socket (`SOCK_DGRAM`, `IPPROTO_ICMP`) needs no privilege where
/// `net.ipv4.ping_group_range` holds the process's group, and sees only its own replies, the
/// kernel choosing the identifier; a raw socket (`SOCK_RAW`) needs `CAP_NET_RAW` and sees every
/// ICMP message of the machine, so its replies are picked by the identifier it chose.
struct EchoSocket: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case datagram, raw
    }

    /// Why no socket of any kind asked could be opened.
    struct Refusal: Error, Equatable {
        let message: String
    }

    /// What came in on the socket.
    enum Message: Equatable {
        /// The reply to the echo request of this sequence number.
        case reply(sequence: UInt16)
        /// An error reported about the request of this sequence number: its `errno` and, from an
        /// ICMP message, the address of the router or host that sent it.
        case error(sequence: UInt16, code: Int32, reporter: String?)
    }

    let descriptor: Int32
    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    let kind: Kind
    /// The identifier of the requests of a raw socket; a datagram socket's is the kernel's.
    let identifier: UInt16

    /// Opens a socket of `family`, of the first of `kinds` the system allows.
    static func open(family: Int32, kinds: [Kind] = Kind.allCases, identifier: UInt16) -> Result<EchoSocket, Refusal> {
        var refusals: [String] = []
        for kind in kinds {
            let type = (kind == .datagram ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_RAW.rawValue))
                | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let descriptor = socket(family, type, family == AF_INET6 ? Int32(IPPROTO_ICMPV6) : Int32(IPPROTO_ICMP))
            guard descriptor >= 0 else {
                refusals.append(kind == .datagram
                    ? "an ICMP datagram socket (\(String(errno: errno)): net.ipv4.ping_group_range does not hold its group)"
                    : "a raw socket (\(String(errno: errno)): it lacks CAP_NET_RAW)")
                continue
            }
            var on: Int32 = 1
            let (level, option) = family == AF_INET6 ? (Int32(IPPROTO_IPV6), IPV6_RECVERR) : (Int32(IPPROTO_IP), IP_RECVERR)
            setsockopt(descriptor, level, option, &on, socklen_t(MemoryLayout<Int32>.size))
            return .success(EchoSocket(descriptor: descriptor, family: family, kind: kind, identifier: identifier))
        }
        return .failure(Refusal(message: "StateDeck may open neither " + refusals.joined(separator: " nor ") + "."))
    }

    /// Sends the echo request `sequence` to `address`: 0, or the `errno` of `sendto`.
    func send(sequence: UInt16, to address: SocketAddress) -> Int32 {
        var packet = [UInt8](repeating: 0, count: 8 + Self.payload.count)
        packet[0] = family == AF_INET6 ? 128 : 8
        packet[4] = UInt8(identifier >> 8)
        packet[5] = UInt8(identifier & 0xFF)
        packet[6] = UInt8(sequence >> 8)
        packet[7] = UInt8(sequence & 0xFF)
        packet.replaceSubrange(8..., with: Self.payload)
        // The kernel sums an ICMPv6 message itself, and a datagram socket's of either family.
        let sum = Self.checksum(packet)
        packet[2] = UInt8(sum >> 8)
        packet[3] = UInt8(sum & 0xFF)
        let sent = address.withSockaddr { sendto(descriptor, packet, packet.count, 0, $0, $1) }
        return sent < 0 ? errno : 0
    }

    /// The next message waiting, skipping what is not a reply to this socket's requests; nil
    /// once none waits.
    func receive() -> Message? {
        var buffer = [UInt8](repeating: 0, count: 1500)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            if let sequence = reply(in: buffer.prefix(count)) { return .reply(sequence: sequence) }
        }
    }

    /// The next error waiting in the socket's error queue (`MSG_ERRQUEUE`); nil once none waits.
    func receiveError() -> Message? {
        var payload = [UInt8](repeating: 0, count: 576)
        var control = [UInt8](repeating: 0, count: 512)
        while true {
            let received: (count: Int, control: Int) = payload.withUnsafeMutableBytes { payloadBytes in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: payloadBytes.baseAddress, iov_len: payloadBytes.count)
                    return withUnsafeMutablePointer(to: &vector) { vector in
                        var message = msghdr()
                        message.msg_iov = vector
                        message.msg_iovlen = 1
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                        let count = recvmsg(descriptor, &message, Int32(MSG_ERRQUEUE))
                        return (count, Int(message.msg_controllen))
                    }
                }
            }
            guard received.count >= 0 else { return nil }
            guard let sequence = request(in: payload.prefix(received.count)),
                  let error = Self.extendedError(in: control.prefix(received.control), family: family) else { continue }
            return .error(sequence: sequence, code: error.code, reporter: error.reporter)
        }
    }

    /// The sequence number of an echo reply to this socket in `packet`, as `recv` gives it: an
    /// IPv4 raw socket's with its IP header first.
    private func reply(in packet: ArraySlice<UInt8>) -> UInt16? {
        var message = packet
        if family == AF_INET, kind == .raw {
            guard let first = message.first else { return nil }
            message = message.dropFirst(Int(first & 0x0F) * 4)
        }
        guard message.count >= 8, message[message.startIndex] == (family == AF_INET6 ? 129 : 0) else { return nil }
        return header(of: message)
    }

    /// The sequence number of this socket's own echo request in `packet`, the start of what an
    /// error was about.
    private func request(in packet: ArraySlice<UInt8>) -> UInt16? {
        guard packet.count >= 8, packet[packet.startIndex] == (family == AF_INET6 ? 128 : 8) else { return nil }
        return header(of: packet)
    }

    /// The sequence number of the ICMP echo header starting `message`, when its identifier is
    /// this socket's (a datagram socket's identifier is the kernel's, and only its own come).
    private func header(of message: ArraySlice<UInt8>) -> UInt16? {
        let start = message.startIndex
        let identifier = UInt16(message[start + 4]) << 8 | UInt16(message[start + 5])
        guard kind == .datagram || identifier == self.identifier else { return nil }
        return UInt16(message[start + 6]) << 8 | UInt16(message[start + 7])
    }

    /// What each request carries after its header: the bytes are not read back, the round trip
    /// being timed on this side.
    private static let payload = Array("StateDeck ping, 32 bytes long...".utf8)

    /// The internet checksum (RFC 1071) of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var index = 0
        while index + 1 < bytes.count {
            sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            index += 2
        }
        if index < bytes.count { sum += UInt32(bytes[index]) << 8 }
        while sum > 0xFFFF { sum = (sum & 0xFFFF) + (sum >> 16) }
        return ~UInt16(sum)
    }

    /// The `sock_extended_err` of an `IP_RECVERR` (or `IPV6_RECVERR`) control message in
    /// `control`: its `errno`, and the address of the one that reported it, which follows it.
    private static func extendedError(in control: ArraySlice<UInt8>, family: Int32) -> (code: Int32, reporter: String?)? {
        let bytes = Array(control)
        let headerSize = MemoryLayout<cmsghdr>.size
        let (level, type) = family == AF_INET6 ? (Int32(IPPROTO_IPV6), IPV6_RECVERR) : (Int32(IPPROTO_IP), IP_RECVERR)
        var offset = 0
        while offset + headerSize <= bytes.count {
            let header = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self) }
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= bytes.count else { return nil }
            // struct sock_extended_err { u32 ee_errno; u8 ee_origin, ee_type, ee_code, ee_pad; u32 ee_info, ee_data; }
            let data = offset + headerSize
            if header.cmsg_level == level, header.cmsg_type == type, length - headerSize >= 16 {
                let code = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: data, as: UInt32.self) }
                let reporter = SocketAddress(sockaddr: Array(bytes[(data + 16)..<(offset + length)]))?.numericHost
                return (Int32(bitPattern: code), reporter)
            }
            offset += (length + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
        }
        return nil
    }
}
