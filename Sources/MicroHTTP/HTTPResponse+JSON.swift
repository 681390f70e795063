extension HTTPResponse {
    static let jsonContentType = "application/json; charset=utf-8"

    /// Already-encoded JSON bytes with the JSON content type.
    public static func json(_ status: HTTPStatus, _ bytes: [UInt8]) -> HTTPResponse {
        json(status, body: .bytes(bytes))
    }

    /// Already-encoded JSON, such as a document shared by many answers, with the JSON content type.
    public static func json(_ status: HTTPStatus, body: Body) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": jsonContentType], body: body)
    }

    /// The wire contract's error document: `{"error": {"code": …, "message": …}}`.
    public static func error(_ status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        let document = #"{"error":{"code":"# + JSONString.quoted(code)
            + #","message":"# + JSONString.quoted(message) + "}}"
        return json(status, Array(document.utf8))
    }
}
