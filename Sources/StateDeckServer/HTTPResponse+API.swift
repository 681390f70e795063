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
        var response = HTTPResponse.json(status, body: body)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    static func api(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        api(status, Array(text.utf8))
    }

    static func api(_ status: HTTPStatus, _ data: Data) -> HTTPResponse {
        api(status, [UInt8](data))
    }

    /// PROTOCOL.md's error shape, never cached.
    static func apiError(_ status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        var response = HTTPResponse.error(status, code: code, message: message)
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
