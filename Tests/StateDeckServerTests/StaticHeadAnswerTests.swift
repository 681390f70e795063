import Foundation
import MicroHTTP
import Testing
@testable import StateDeckServer

/// The fast path for static files, without sockets: whatever `SecureResponder` answers from a
/// request's head is exactly what the full way (gate, router, files) answers, and it answers
/// only where the full way would serve the file.
@Suite struct StaticHeadAnswerTests {
    /// Files that the full way serves, and files it does not (a route's path, one the gate
    /// checks further, one that needs an escape to be named).
    static let files = [
        "index.html", "app.js", "dir/index.html", "events", "upload", "api/notes.txt", "100%.txt",
    ]
    static let port = 8080

    /// A responder wired as `DeckServer` wires it, over a folder of `files`.
    private static func responder(token: AccessToken? = nil) throws -> SecureResponder {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-head-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        for path in files {
            try Data("contents of \(path)\n".utf8).write(to: folder.appendingPathComponent(path))
        }
        let files = try StaticFiles(directory: folder)
        var router = Router { request, _ in .response(files.respond(to: request)) }
        router.on(.get, "/events") { _, _ in .response(HTTPResponse(status: .ok, body: .bytes(Array("stream".utf8)))) }
        router.on(.post, "/upload") { _, _ in .response(HTTPResponse(status: .accepted)) }
        let gate = RequestGate(configuredHost: "127.0.0.1", access: token.map(AccessList.init(token:)))
        gate.bind(port: port)
        return SecureResponder(gate: gate, routes: router, files: files)
    }

    /// Status, headers and body, as they would go on the wire.
    private static func wire(_ response: HTTPResponse) -> String {
        let body: [UInt8]
        switch response.body {
        case .bytes(let bytes): body = bytes
        case .shared(let shared): body = shared.bytes
        case .stream: body = Array("<stream>".utf8)
        }
        let headers = response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return "\(response.status.rawValue)\n\(headers)\n\n\(String(decoding: body, as: UTF8.self))"
    }

    /// The head's answer, if any, next to the full way's.
    private static func answers(
        _ responder: SecureResponder, _ method: HTTPMethod, _ target: String, _ headers: HTTPHeaders
    ) throws -> (head: String?, full: String) {
        let head = responder.respond(toHead: RequestHead(method: method, target: target, headers: headers))
        guard case .response(let full) = responder.respond(to: try HTTPRequest(method: method, target: target, headers: headers)) else {
            Issue.record("\(method) \(target) was deferred")
            return (nil, "")
        }
        return (head.map(wire), wire(full))
    }

    static let host: HTTPHeaders = ["Host": "127.0.0.1:\(port)"]

    @Test func whatTheHeadAnswersIsWhatTheFullWayAnswers() throws {
        let responder = try Self.responder()
        let appTag = try #require(try Self.answers(responder, .get, "/app.js", Self.host).full
            .split(separator: "\n").first { $0.hasPrefix("ETag: ") }?.dropFirst("ETag: ".count))
        let headerSets: [HTTPHeaders] = [
            Self.host, ["Host": "localhost:\(Self.port)"], ["Host": "evil.example:\(Self.port)"], [:],
            ["Host": "127.0.0.1:\(Self.port)", "If-None-Match": String(appTag)],
            ["Host": "127.0.0.1:\(Self.port)", "If-None-Match": "\"other\""],
            ["Host": "127.0.0.1:\(Self.port)", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"],
        ]
        let targets = [
            "/", "/index.html", "/app.js", "/dir/", "/dir/index.html", "/dir", "/events", "/upload",
            "/api/notes.txt", "/100%25.txt", "/app.js?x=1", "/app%2Ejs", "/nope.js", "//app.js",
        ]
        var fromHead = 0
        for method in [HTTPMethod.get, .head, .post] {
            for target in targets {
                for headers in headerSets {
                    let (head, full) = try Self.answers(responder, method, target, headers)
                    guard let head else { continue }
                    fromHead += 1
                    #expect(head == full, "\(method) \(target) \(Array(headers))")
                }
            }
        }
        // Five targets name files; each GET and HEAD with an accepted Host (two spellings, or
        // with an If-None-Match either way, or with headers only live state is checked for).
        #expect(fromHead == 5 * 2 * 5)
    }

    @Test(arguments: [
        "/events", "/upload", "/api/notes.txt", "/100%25.txt", "/app.js?x=1", "/app%2Ejs", "/nope.js", "//app.js", "/dir",
    ])
    func pathsTheFullWayDoesNotServeAsFilesAreNotAnsweredFromTheHead(target: String) throws {
        let responder = try Self.responder()
        #expect(responder.respond(toHead: RequestHead(method: .get, target: target, headers: Self.host)) == nil)
    }

    @Test func aTokenSendsEveryRequestTheFullWay() throws {
        let responder = try Self.responder(token: AccessToken.generate())
        #expect(responder.respond(toHead: RequestHead(method: .get, target: "/app.js", headers: Self.host)) == nil)
        #expect(responder.respond(toHead: RequestHead(method: .get, target: "/", headers: Self.host)) == nil)
    }
}
