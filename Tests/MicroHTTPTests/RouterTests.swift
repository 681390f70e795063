import Foundation
import MicroHTTP
import Testing

/// The router on its own: requests built in memory, no sockets.
@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.on(.get, "/api/state") { _, _ in .response(.json(.ok, Array(#"{"state":1}"#.utf8))) }
        router.on(.post, "/api/panels/{id}/retry") { _, parameters in
            .response(.json(.accepted, Array(#"{"id":"\#(parameters["id"] ?? "")"}"#.utf8)))
        }
        router.on(.get, "/api/panels/{id}") { _, parameters in
            .response(.json(.ok, Array((parameters["id"] ?? "").utf8)))
        }
        return router
    }

    private func respond(_ router: Router, _ method: HTTPMethod, _ target: String) throws -> HTTPResponse {
        guard case .response(let response) = router.respond(to: try HTTPRequest(method: method, target: target)) else {
            throw RouterTestError.deferred
        }
        return response
    }

    @Test func matchesLiteralAndParameterSegments() throws {
        let response = try respond(router(), .post, "/api/panels/db%20main/retry")
        #expect(response.status == .accepted)
        #expect(bodyText(response) == #"{"id":"db main"}"#)
    }

    @Test func routesListsEveryMethodAndPatternAsRegisteredShortestFirst() {
        let routes = router().routes.map { "\($0.method) \($0.pattern)" }
        #expect(routes == ["GET /api/state", "GET /api/panels/{id}", "POST /api/panels/{id}/retry"])
    }

    @Test func hasRouteForWhatSomePatternMatchesWhateverTheMethod() {
        let router = router()
        #expect(router.hasRoute(for: ["api", "state"]))
        #expect(router.hasRoute(for: ["api", "panels", "db", "retry"]))
        #expect(!router.hasRoute(for: ["api", "panels", "", "retry"]))
        #expect(!router.hasRoute(for: ["api"]))
        #expect(!router.hasRoute(for: ["app.js"]))
        #expect(!Router().hasRoute(for: [""]))
    }

    @Test func unknownPathIsNotFoundInTheErrorShape() throws {
        let response = try respond(router(), .get, "/nope")
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        #expect(errorDocument(response) == ["code": "not_found", "message": "nothing at /nope"])
    }

    @Test func wrongMethodIsMethodNotAllowedWithAllow() throws {
        let response = try respond(router(), .delete, "/api/state")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(errorDocument(response)?["code"] == "method_not_allowed")
        let post = try respond(router(), .get, "/api/panels/x/retry")
        #expect(post.headers["Allow"] == "POST")
    }

    @Test func headIsServedByGetRoutes() throws {
        let response = try respond(router(), .head, "/api/state")
        #expect(response.status == .ok)
        #expect(bodyText(response) == #"{"state":1}"#)
    }

    @Test func parameterNeedsOneNonEmptySegment() throws {
        #expect(try respond(router(), .get, "/api/panels/").status == .notFound)
        #expect(try respond(router(), .get, "/api/panels/a/b").status == .notFound)
        #expect(bodyText(try respond(router(), .get, "/api/panels/a%2Fb")) == "a/b")
    }

    @Test func aParameterWithASuffixTakesTheSegmentWithoutIt() throws {
        var router = Router()
        router.on(.get, "/badge/{panel}.svg") { _, parameters in
            .response(HTTPResponse(status: .ok, body: .bytes(Array((parameters["panel"] ?? "").utf8))))
        }
        #expect(bodyText(try respond(router, .get, "/badge/api.svg")) == "api")
        #expect(bodyText(try respond(router, .get, "/badge/caf%C3%A9.svg.svg")) == "café.svg")
        #expect(try respond(router, .get, "/badge/.svg").status == .notFound)
        #expect(try respond(router, .get, "/badge/api.png").status == .notFound)
        #expect(try respond(router, .get, "/badge/api").status == .notFound)
        #expect(router.hasRoute(for: ["badge", "api.svg"]))
        #expect(!router.hasRoute(for: ["badge", "api.svgz"]))
    }

    @Test func fallbackAnswersUnmatchedPaths() throws {
        var router = Router { request, _ in .response(HTTPResponse(status: .ok, body: .bytes(Array(request.path.utf8)))) }
        router.on(.get, "/api/state") { _, _ in .response(HTTPResponse(status: .noContent)) }
        #expect(bodyText(try respond(router, .get, "/index.html")) == "/index.html")
        #expect(try respond(router, .post, "/api/state").status == .methodNotAllowed)
    }

    @Test func errorMessagesAreEscapedJSON() throws {
        let response = HTTPResponse.error(.badRequest, code: "bad_request", message: "field \"a\\b\"\n\u{1}é\u{2028}")
        #expect(bodyText(response) == #"{"error":{"code":"bad_request","message":"field \"a\\b\"\n\u0001é\u2028"}}"#)
        #expect(errorDocument(response)?["message"] == "field \"a\\b\"\n\u{1}é\u{2028}")
    }
}

enum RouterTestError: Error {
    case deferred
}

func bodyText(_ response: HTTPResponse) -> String? {
    guard case .bytes(let bytes) = response.body else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

func errorDocument(_ response: HTTPResponse) -> [String: String]? {
    guard case .bytes(let bytes) = response.body,
          let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    else { return nil }
    return object["error"] as? [String: String]
}
