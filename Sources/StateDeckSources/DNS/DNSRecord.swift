/// The record types a dns source asks for, named as in a zone file.
public enum DNSRecordType: String, Sendable, Hashable, CaseIterable {
    case a = "A"
    case aaaa = "AAAA"
    case cname = "CNAME"
    case mx = "MX"
    case txt = "TXT"
    case ns = "NS"
}

/// One record of an answer, of the type asked for.
struct DNSRecord: Sendable, Hashable {
    /// An address, a name (without its final dot), or a TXT record's strings joined.
    var value: String
    /// An MX record's preference, lowest first; nil for other types.
    var preference: Int? = nil
}

/// A DNS answer's response code (RCODE).
enum DNSResponseCode: Sendable, Equatable {
    case noError
    /// NXDOMAIN: the name does not exist.
    case nameError
    /// SERVFAIL.
    case serverFailure
    case refused
    /// FORMERR, NOTIMP or a code of an extension, by number.
    case other(Int)

    init(_ code: Int) {
        self = switch code {
        case 0: .noError
        case 2: .serverFailure
        case 3: .nameError
        case 5: .refused
        default: .other(code)
        }
    }

    /// The code's mnemonic, as `dig` prints it.
    var name: String {
        switch self {
        case .noError: "NOERROR"
        case .nameError: "NXDOMAIN"
        case .serverFailure: "SERVFAIL"
        case .refused: "REFUSED"
        case .other(1): "FORMERR"
        case .other(4): "NOTIMP"
        case .other(let code): "RCODE \(code)"
        }
    }
}

/// What one query came to.
enum DNSOutcome: Sendable {
    /// The server answered with this code; the records are those of the type asked for.
    case answered(DNSResponseCode, [DNSRecord])
    /// No answer came within the resolver's tries.
    case timedOut
    /// No server could be reached (nothing listens at its port, no route): the reason.
    case unreachable(String)
    /// An answer came that cannot be read: why.
    case unreadable(String)
    /// The answer was too large for one UDP message (truncated, or longer than 512 bytes), and
    /// asking again over TCP, as resolvers then do, brought none: why.
    case tooLarge(String)
    /// The resolver could not ask (its settings unreadable, a name it cannot send): why.
    case failed(String)
}
