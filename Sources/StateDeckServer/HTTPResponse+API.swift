import FoundationEssentials
import MicroHTTP

extension HTTPResponse {
    /// A JSON answer of the API: never cached, since it is live state.
    static func api(_ status: HTTPStatus, _ bytes: [UInt8]) -> HTTPResponse {
        api(status, body: .bytes(bytes))
    }

    /// A document sent unchanged to many requests, such as the state document.
    static func api(_ status: HTTPStatus, _ document: SharedBytes) -> HTTPResponse {
        api(status, body: .shared(document))
    }

    private static func api(_ status: HTTPStatus, body: Body) -> HTTPResponse {
        HTTPResponse(status: status, headers: apiHeaders, body: body)
    }

    /// Built once: answers that carry this one value share its storage, so the transport finds
    /// a shared document's response without comparing a field (`SharedBytes`), and no request
    /// builds the list again.
    private static let apiHeaders: HTTPHeaders = {
        var headers = HTTPResponse.json(.ok, body: .bytes([])).headers
        headers.add("Cache-Control", "no-store")
        return headers
    }()

    /// Metrics in Prometheus' text format (version 0.0.4), never cached.
    static func metrics(_ exposition: [UInt8]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(exposition))
    }

    static func api(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        api(status, Array(text.utf8))
    }

    static func api(_ status: HTTPStatus, _ data: Data) -> HTTPResponse {
        api(status, [UInt8](data))
    }

    /// A refusal for want of a role: PROTOCOL.md's error shape (code `forbidden`) with the role
    /// needed beside the message, never cached.
    static func forbidden(_ message: String, needing role: AccessRole) -> HTTPResponse {
        let document = #"{"error":{"code":"forbidden","message":"# + JSONString.quoted(message)
            + #","role":"# + JSONString.quoted(role.rawValue) + "}}"
        var response = HTTPResponse.json(.forbidden, Array(document.utf8))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// A refusal for passing a limit: PROTOCOL.md's error shape with the limit beside the message
    /// (`limit` a JSON object: `{"field", "characters", "bytes"}` or `{"what", "count"}`), never cached.
    static func overLimit(_ status: HTTPStatus, code: String, message: String, limit: String) -> HTTPResponse {
        let document = #"{"error":{"code":"# + JSONString.quoted(code) + #","message":"# + JSONString.quoted(message)
            + #","limit":"# + limit + "}}"
        var response = HTTPResponse.json(status, Array(document.utf8))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// PROTOCOL.md's error shape, never cached.
    static func apiError(_ status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        var response = HTTPResponse.error(status, code: code, message: message)
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
