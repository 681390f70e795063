import MicroHTTP
import StateDeck

/// `POST /api/debug/panels/{id}/state` body: one state to force, or a list of modifying ids.
struct DebugBody: Decodable {
    struct ErrorSpec: Decodable {
        let kind: String?
    }

    let state: String?
    let info: Info?
    let error: ErrorSpec?
    let modifyingIds: [String]?

    static let states = ["loading", "loaded", "error", "reset", "live"]

    /// The debug command a request asks for, or a `RequestBodyError` naming the bad field.
    static func command(from request: HTTPRequest) throws -> DebugCommand {
        let body = try RequestBody.decode(DebugBody.self, from: request)
        // Checked whatever the command: a kind the server does not know is refused, never dropped.
        let kind = try errorKind(body.error?.kind)
        if let ids = body.modifyingIds, body.state == nil {
            return .modifyingIds(ids)
        }
        switch body.state {
        case "loading": return .loading
        case "loaded": return .loaded(body.info)
        case "error": return .error(kind)
        case "reset": return .reset
        case "live": return .live
        case nil:
            throw RequestBodyError(description: "field 'state' is missing (or give 'modifyingIds')")
        case let other?:
            throw RequestBodyError(description:
                "field 'state' must be one of \(states.joined(separator: ", ")), not '\(other)'")
        }
    }

    private static func errorKind(_ name: String?) throws -> ErrorKind? {
        guard let name else { return nil }
        guard let kind = ErrorKind(rawValue: name) else {
            let known = ErrorKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw RequestBodyError(description: "field 'error.kind' must be one of \(known), not '\(name)'")
        }
        return kind
    }
}
