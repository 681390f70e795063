/// Refuses body framings that libmicrohttpd 0.9.75 lets through, before any body byte is read.
///
/// Measured: it reads a chunked body when `Transfer-Encoding: chunked` comes with a
/// `Content-Length`, takes the first of two different `Content-Length`s (the rest of the body then
/// parses as the next request), and drops a request with any other transfer coding unanswered. A
/// proxy in front could frame such a request differently (request smuggling), and no client of
/// this server sends one.
enum RequestFraming {
    /// The refusal for `headers`, or nil when the framing is unambiguous.
    static func refusal(for headers: HTTPHeaders) -> HTTPResponse? {
        let lengths = headers.values(for: "Content-Length")
        let codings = headers.values(for: "Transfer-Encoding")
        if !codings.isEmpty, !lengths.isEmpty {
            return refuse("Content-Length and Transfer-Encoding must not come together")
        }
        // Trimmed only when there is more than one to compare: nearly every request has one.
        if lengths.count > 1, Set(lengths.map(trimmed)).count > 1 {
            return refuse("the request has conflicting Content-Length headers")
        }
        if !codings.isEmpty {
            let list = codings.flatMap { $0.split(separator: ",") }.map { trimmed(String($0)).lowercased() }
            // RFC 9112 suggests 501 here; 400 keeps to the error codes of the wire contract.
            guard list == ["chunked"] else {
                return refuse("the only transfer coding accepted is chunked")
            }
        }
        return nil
    }

    private static func refuse(_ message: String) -> HTTPResponse {
        var response = HTTPResponse.error(.badRequest, code: "bad_request", message: message)
        response.headers.set("Connection", "close")
        return response
    }

    private static func trimmed(_ value: String) -> String {
        String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
