import Foundation
import Locking
import MicroHTTP
import TestSupport
import Testing

extension Live {
    @Suite struct DeferredTests {
        @Test func deferredReplyArrivesAndTheConnectionStaysUsable() throws {
            let responder = CallbackResponder { request in
                .deferred {
                    try? await Task.sleep(for: .milliseconds(20))
                    return .json(.accepted, Array(#"{"path":"\#(request.path)"}"#.utf8))
                }
            }
            try withServer(responder: responder) { _, port in
                let connection = try HTTPTestConnection(port: port)
                for path in ["/first", "/second"] {
                    try connection.send("POST", path, body: Array("{}".utf8))
                    let response = try connection.readResponse()
                    #expect(response.status == 202)
                    #expect(response.text == #"{"path":"\#(path)"}"#)
                }
            }
        }

        /// A connection's next request reuses its context when nothing holds it any more: no
        /// target, header or body may carry over, whether the one before was deferred or not.
        @Test func requestsInTurnOnOneConnectionSeeOnlyTheirOwnParts() throws {
            let responder = CallbackResponder { request in
                let echo = HTTPResponse.json(.ok, Array(#"{"target":"\#(request.target)","tag":"\#(request.headers["X-Tag"] ?? "")","body":"\#(String(decoding: request.body, as: UTF8.self))"}"#.utf8))
                return request.pathSegments.first == "later" ? .deferred { echo } : .response(echo)
            }
            try withServer(responder: responder) { _, port in
                let connection = try HTTPTestConnection(port: port)
                let requests: [(target: String, tag: String?, body: String)] = [
                    ("/later/1?q", "a", "one"), ("/now/2", nil, ""), ("/later/3", nil, "three"),
                    ("/later/4", "d", ""), ("/now/5", "e", "five"), ("/now/6", nil, ""),
                ]
                for request in requests {
                    try connection.send("POST", request.target, headers: request.tag.map { [("X-Tag", $0)] } ?? [],
                                        body: Array(request.body.utf8))
                    let response = try connection.readResponse()
                    #expect(response.text == #"{"target":"\#(request.target)","tag":"\#(request.tag ?? "")","body":"\#(request.body)"}"#)
                }
            }
        }

        /// Requests answered `.awaiting` wait with no task of their own until their answers come,
        /// all at once from another thread, in any order; each connection gets its own and stays usable.
        @Test func awaitingRepliesAreAnsweredFromAnotherThreadTogether() throws {
            let answers = Locked<[(path: String, answer: @Sendable (HTTPResponse) -> Void)]>([])
            let responder = CallbackResponder { request in
                .awaiting { answer in answers.withLock { $0.append((request.path, answer)) } }
            }
            try withServer(responder: responder) { _, port in
                let clients = try (0..<5).map { _ in try HTTPTestConnection(port: port) }
                for round in 0..<2 {
                    for (index, client) in clients.enumerated() {
                        try client.send("POST", "/ping/\(round)-\(index)", body: Array("ok".utf8))
                    }
                    #expect(waitUntil { answers.current.count == clients.count })
                    for waiting in answers.withLock({ answers in defer { answers = [] }; return answers }).reversed() {
                        waiting.answer(.json(.ok, Array(#"{"path":"\#(waiting.path)"}"#.utf8)))
                    }
                    for (index, client) in clients.enumerated() {
                        let response = try client.readResponse()
                        #expect(response.status == 200)
                        #expect(response.text == #"{"path":"/ping/\#(round)-\#(index)"}"#)
                    }
                }
            }
        }

        /// A stop answers a request still waiting for its answer with 503; the answer that comes
        /// later finds it answered and does nothing.
        @Test func stopAnswersAnAwaitingRequestWith503AndDropsItsLateAnswer() throws {
            let answers = Locked<[@Sendable (HTTPResponse) -> Void]>([])
            let responder = CallbackResponder { _ in .awaiting { answer in answers.withLock { $0.append(answer) } } }
            let server = HTTPServer(configuration: HTTPServer.Configuration(), responder: responder)
            let port = try server.start()
            let client = try HTTPTestConnection(port: port)
            try client.send("POST", "/ping/k", body: [])
            #expect(waitUntil { answers.current.count == 1 })
            server.stop()
            #expect(try client.readResponse().status == 503)
            answers.current.forEach { $0(HTTPResponse(status: .ok)) }
        }

        @Test func stopAnswersWaitingDeferredRequestsWith503() throws {
            let waiting = Locked(0)
            let responder = CallbackResponder { _ in
                .deferred {
                    waiting.withLock { $0 += 1 }
                    try? await Task.sleep(for: .seconds(30))
                    return HTTPResponse(status: .ok)
                }
            }
            let server = HTTPServer(configuration: HTTPServer.Configuration(), responder: responder)
            let port = try server.start()
            let clients = try (0..<10).map { _ in try HTTPTestConnection(port: port) }
            for client in clients {
                try client.send("POST", "/slow", body: [])
            }
            // The work starts only once its connection is suspended.
            #expect(waitUntil { waiting.current == 10 })
            let started = ContinuousClock.now
            server.stop()
            #expect(ContinuousClock.now - started < .seconds(1))
            for client in clients {
                let response = try client.readResponse()
                #expect(response.status == 503)
            }
        }
    }
}
