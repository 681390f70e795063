import Foundation
import Glibc
import Locking
@testable import MicroHTTP
import TestSupport
import Testing

extension Live {
    @Suite struct StreamTests {
        @Test func writtenChunkArrivesWithinMilliseconds() throws {
            let route = StreamRoute()
            try withServer(responder: route) { server, port in
                let client = try SSEClient(port: port, path: "/events")
                #expect(client.status == 200)
                #expect(client.headers.contains { $0.name == "Content-Type" && $0.value == "text/event-stream" })
                #expect(waitUntil { server.liveStreamCount == 1 })
                let sent = ContinuousClock.now
                route.all[0].write(hello)
                #expect(try client.nextEvent() == SSEEvent(data: "hello"))
                #expect(ContinuousClock.now - sent < .milliseconds(200))
            }
        }

        @Test func caughtUpClientTakesSmallWritesButNotEnqueuedOnesWhileTheServerThreadIsBusy() throws {
            let route = StreamRoute()
            let busy = DispatchSemaphore(value: 0)
            let entered = Locked(false)
            // Blocks the only polling thread: only a write that skips it can arrive meanwhile.
            let responder = CallbackResponder { request in
                guard request.path == "/busy" else { return route.respond(to: request) }
                entered.withLock { $0 = true }
                busy.wait()
                return .response(HTTPResponse(status: .noContent))
            }
            try withServer({ $0.threadPoolSize = 1 }, responder: responder) { server, port in
                let client = try SSEClient(port: port, path: "/events")
                try #require(waitUntil { server.liveStreamCount == 1 })
                let stream = route.all[0]
                #expect(waitUntil { stream.state.current.suspended })
                let blocker = try HTTPTestConnection(port: port)
                try blocker.send("GET", "/busy")
                #expect(waitUntil { entered.current })
                // Also when a check throws: stopping the server waits for its blocked thread.
                defer { busy.signal() }
                #expect(stream.write(Array("id: 1\ndata: small\n\n".utf8)))
                #expect(try client.nextEvent() == SSEEvent(id: "1", data: "small"))
                // Enqueued, or too large to skip it: both wait for the thread.
                #expect(stream.enqueue(Array("id: 2\ndata: queued\n\n".utf8)))
                let large = "data: " + String(repeating: "x", count: ChunkSocket.sizeLimit) + "\n\n"
                #expect(stream.write(Array(large.utf8)))
                #expect(throws: TestClientError.timeout) { try client.nextEvent(timeout: .milliseconds(500)) }
                busy.signal()
                #expect(try client.nextEvent() == SSEEvent(id: "2", data: "queued"))
                #expect(try client.nextEvent()?.data.utf8.count == ChunkSocket.sizeLimit)
                #expect(try blocker.readResponse().status == 204)
            }
        }

        @Test func idleStreamCostsNoCPU() throws {
            let route = StreamRoute()
            let threadsBefore = ThreadCPU.threads()
            try withServer(responder: route) { server, port in
                // The threads that appeared are libmicrohttpd's: other tests may run alongside.
                let serverThreads = ThreadCPU.threads().subtracting(threadsBefore)
                let client = try SSEClient(port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 1 })
                route.all[0].write(hello)
                #expect(try client.nextEvent() == SSEEvent(data: "hello"))
                // A reader returning 0 without suspending would spin a core: ~300 ms here.
                let before = ThreadCPU.time(of: serverThreads)
                usleep(300_000)
                #expect(ThreadCPU.time(of: serverThreads) - before < .milliseconds(60))
            }
        }

        @Test func idleConnectionsTimeOutButWaitingStreamsDoNot() throws {
            let route = StreamRoute()
            try withServer({ $0.connectionTimeout = .seconds(1) }, responder: route) { server, port in
                let client = try SSEClient(port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 1 })
                // Two idle connections in a row time out: the stream has waited over 2 s.
                for _ in 0..<2 {
                    #expect(try HTTPTestConnection(port: port).waitForClose(timeout: .seconds(4)))
                }
                #expect(route.all[0].write(hello))
                #expect(try client.nextEvent() == SSEEvent(data: "hello"))
            }
        }

        @Test func finishEndsTheStreamAndKeepsTheConnection() throws {
            let route = StreamRoute()
            try withServer(responder: route) { server, port in
                let client = try SSEClient(port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 1 })
                let stream = route.all[0]
                stream.write(Array(": ping\n\n".utf8))
                stream.write(hello)
                stream.finish()
                #expect(stream.isClosed)
                #expect(!stream.write(hello))
                #expect(try client.next() == .comment("ping"))
                #expect(try client.next() == .event(SSEEvent(data: "hello")))
                #expect(try client.next() == nil)
                #expect(waitUntil { server.liveStreamCount == 0 && route.closed.current == 1 })
                // The close handler of an ended stream runs at once.
                let late = Locked(false)
                stream.onClose { late.withLock { $0 = true } }
                #expect(late.current)
                // The chunked body ended cleanly, so the connection serves another request.
                try client.connection.send("GET", "/again")
                #expect(try SSEClient(connection: client.connection).status == 200)
            }
        }

        @Test func fiveHundredStreamsEachReceiveOneWrite() throws {
            let route = StreamRoute()
            try withServer(responder: route) { server, port in
                let clients = try SSEClient.connect(count: 500, port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 500 })
                for (index, stream) in route.all.enumerated() {
                    #expect(stream.write(Array("id: \(index)\ndata: x\n\n".utf8)))
                }
                var received = Set<String>()
                for client in clients {
                    if let id = try client.nextEvent()?.id { received.insert(id) }
                }
                #expect(received.count == 500)
            }
        }

        @Test func departedClientsAreReleasedWithoutAnyWrite() throws {
            let route = StreamRoute()
            try withServer(responder: route) { server, port in
                let clients = try SSEClient.connect(count: 50, port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 50 })
                clients.forEach { $0.close() }
                // libmicrohttpd does not poll a suspended connection; the hang-up watcher does.
                #expect(waitUntil { server.liveStreamCount == 0 })
                #expect(route.closed.current == 50)
                #expect(route.all.allSatisfy { $0.isClosed && !$0.write(hello) })
            }
        }

        @Test func clientsLeavingBeforeTheirStreamStartsAreReleased() throws {
            let route = StreamRoute()
            try withServer(responder: route) { server, port in
                // Gone at once: the hang-up often comes before the stream's first suspend.
                for _ in 0..<200 {
                    let connection = try HTTPTestConnection(port: port)
                    try connection.send("GET", "/events")
                    connection.close()
                }
                #expect(waitUntil { server.liveStreamCount == 0 && route.closed.current == route.all.count })
            }
        }

        @Test func clientThatStopsReadingIsDroppedOnOverflow() throws {
            let route = StreamRoute(capacity: 64 * 1024)
            try withServer(responder: route) { server, port in
                let slow = try HTTPTestConnection(port: port, receiveBufferSize: 4096)
                try slow.send("GET", "/events")
                // One at a time, so the first stream is the slow client's.
                try #require(waitUntil { route.all.count == 1 })
                let reader = try SSEClient(port: port, path: "/events")
                try #require(waitUntil { server.liveStreamCount == 2 })
                let (slowStream, readerStream) = (route.all[0], route.all[1])
                let event = Array(("data: " + String(repeating: "x", count: 8 * 1024) + "\n\n").utf8)
                // Kernel buffers absorb a few MB first (about 350 writes here).
                for _ in 0..<10_000 {
                    guard slowStream.write(event) else { break }
                    try #require(readerStream.write(event))
                    try #require(try reader.nextEvent()?.data.count == 8 * 1024)
                }
                #expect(slowStream.isClosed)
                #expect(slow.waitForClose())
                #expect(waitUntil { server.liveStreamCount == 1 && route.closed.current == 1 })
                #expect(readerStream.write(hello))
                #expect(try reader.nextEvent() == SSEEvent(data: "hello"))
            }
        }

        @Test func stopWithOpenStreamsIsPromptAndEndsThem() throws {
            let route = StreamRoute()
            let server = HTTPServer(configuration: HTTPServer.Configuration(), responder: route)
            let port = try server.start()
            let clients = try SSEClient.connect(count: 200, port: port, path: "/events")
            #expect(waitUntil { server.liveStreamCount == 200 })
            let started = ContinuousClock.now
            server.stop()
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(server.liveStreamCount == 0)
            #expect(route.closed.current == 200)
            #expect(clients.allSatisfy { $0.waitForEnd(timeout: .seconds(2)) })
            server.stop()
        }

        @Test func stopWhilePublishingNeverMeetsASuspendedConnection() throws {
            // MHD_stop_daemon aborts the process on a suspended connection; writes racing the
            // stop suspend and resume connections all the time.
            for _ in 0..<5 {
                let route = StreamRoute()
                let server = HTTPServer(configuration: HTTPServer.Configuration(), responder: route)
                let port = try server.start()
                let clients = try SSEClient.connect(count: 100, port: port, path: "/events")
                #expect(waitUntil { server.liveStreamCount == 100 })
                let publisher = Thread {
                    while route.all.contains(where: { $0.write(hello) }) {}
                }
                publisher.start()
                let started = ContinuousClock.now
                server.stop()
                #expect(ContinuousClock.now - started < .seconds(1))
                #expect(waitUntil { publisher.isFinished })
                #expect(route.closed.current == 100)
                #expect(clients.allSatisfy { $0.waitForEnd() })
            }
        }
    }
}
