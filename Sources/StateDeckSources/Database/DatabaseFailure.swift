/// Why a database check came to no answer, sorted into what its card tells.
enum DatabaseFailure: Error, Equatable {
    case unresolved(String)
    case refused
    /// No answer before the deadline, or the server ended the query at its own limit.
    case timedOut
    /// The network itself is unreachable (no route).
    case noRoute(String)
    /// The connection failed otherwise, or broke: the client's or the server's words.
    case connectFailed(String)
    /// The server refused the user, the password, or this client's address.
    case unauthorized(String)
    /// The server has no database by the URL's name (or number).
    case unknownDatabase(String)
    /// The server ran the query (the command) and answered an error.
    case queryFailed(String)
    /// What came back does not follow the protocol.
    case invalidAnswer(String)
}

extension DatabaseFailure {
    /// The failure of a connection that could not be made.
    init(_ failure: TCPProbe.Failure) {
        switch failure {
        case .refused: self = .refused
        case .timedOut, .silent: self = .timedOut
        case .unresolved(let reason): self = .unresolved(reason)
        case .noRoute(let reason): self = .noRoute(reason)
        case .failed(let reason): self = .connectFailed(reason)
        }
    }
}
