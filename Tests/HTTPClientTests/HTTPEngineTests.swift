import Foundation
import Locking
import TestSupport
import Testing
@testable import HTTPClient

/// The one-thread libcurl engine: limits, connection reuse, waiting in line, cancellation.
@Suite("HTTPEngine")
struct HTTPEngineTests {
    @Test func twoHundredConcurrentRequestsAllAnswerOverAFewConnections() async throws {
        let server = try KeepAliveServer()
        let engine = try HTTPEngine(limitPerHost: 4, totalLimit: 64)
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<200 {
                group.addTask { try? await engine.send(HTTPClientRequest(url: server.url), waiting: { _ in }).status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.connections <= 4)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try KeepAliveServer()
        let engine = try HTTPEngine()
        for _ in 0..<200 {
            #expect(try await engine.send(HTTPClientRequest(url: server.url), waiting: { _ in }).status == 200)
        }
        #expect(server.connections == 1)
    }

    @Test func aServerSeesNoMoreThanTheLimitPerHostAtOnce() async throws {
        let server = try KeepAliveServer(delay: .milliseconds(100))
        let engine = try HTTPEngine(limitPerHost: 3, totalLimit: 64)
        let waited = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    _ = try? await engine.send(HTTPClientRequest(url: server.url)) { waiting in
                        if waiting { waited.withLock { $0 += 1 } }
                    }
                }
            }
        }
        #expect(server.mostAtOnce == 3)
        #expect(waited.current == 9, "every request beyond the limit said it waited")
    }

    @Test func theTotalLimitHoldsAcrossHosts() async throws {
        let held = KeepAliveServer.HeldRequests()
        let servers = try (0..<4).map { _ in try KeepAliveServer(delay: .milliseconds(100), held: held) }
        let engine = try HTTPEngine(limitPerHost: 4, totalLimit: 2)
        await withTaskGroup(of: Void.self) { group in
            for server in servers {
                for _ in 0..<3 {
                    group.addTask { _ = try? await engine.send(HTTPClientRequest(url: server.url), waiting: { _ in }) }
                }
            }
        }
        #expect(held.mostAtOnce == 2)
    }

    /// libcurl's own per-host queue would count this wait against the timeout: the second
    /// request would time out after 1.5 s, having waited 1 s for the first.
    @Test func timeWaitingInLineDoesNotCountAgainstTheTimeout() async throws {
        let server = try KeepAliveServer(delay: .seconds(1))
        let engine = try HTTPEngine(limitPerHost: 1, totalLimit: 64)
        let request = HTTPClientRequest(url: server.url, timeout: .milliseconds(1500))
        async let first = engine.send(request, waiting: { _ in })
        async let second = engine.send(request, waiting: { _ in })
        #expect(try await first.status == 200)
        #expect(try await second.status == 200)
    }

    @Test func aSlowAnswerTimesOut() async throws {
        let server = try KeepAliveServer(delay: .seconds(5))
        let engine = try HTTPEngine()
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.self) {
            try await engine.send(HTTPClientRequest(url: server.url, timeout: .milliseconds(300)), waiting: { _ in })
        }
        let error = await #expect(throws: HTTPClientError.self) {
            try await engine.send(HTTPClientRequest(url: server.url, timeout: .milliseconds(300)), waiting: { _ in })
        }
        #expect(error?.reason == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func cancellingAWaitingAndARunningTransferEndsEachAtOnce() async throws {
        let server = try KeepAliveServer(delay: .seconds(10))
        let engine = try HTTPEngine(limitPerHost: 1, totalLimit: 64)
        let request = HTTPClientRequest(url: server.url, timeout: .seconds(20))
        let running = Task { try await engine.send(request, waiting: { _ in }) }
        #expect(await eventually { server.mostAtOnce == 1 })
        let waited = Locked(false)
        let waiting = Task { try await engine.send(request) { if $0 { waited.withLock { $0 = true } } } }
        #expect(await eventually { waited.current })

        var started = ContinuousClock.now
        waiting.cancel()
        let waitingError = await #expect(throws: HTTPClientError.self) { try await waiting.value }
        #expect(waitingError?.reason == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(1), "the answer would take 10 s")

        started = ContinuousClock.now
        running.cancel()
        let runningError = await #expect(throws: HTTPClientError.self) { try await running.value }
        #expect(runningError?.reason == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(1), "the answer would take 10 s")

        // Neither holds the host's one turn any more: the next request gets it and times out,
        // rather than waiting until it is given up.
        let next = Task { try await engine.send(HTTPClientRequest(url: server.url, timeout: .milliseconds(300)), waiting: { _ in }) }
        let givingUp = Task {
            try await Task.sleep(for: .seconds(3))
            next.cancel()
        }
        let nextError = await #expect(throws: HTTPClientError.self) { try await next.value }
        #expect(nextError?.reason == .timedOut)
        givingUp.cancel()
    }

    @Test func fiveHundredConcurrentRequestsAddNoThread() async throws {
        // Connections wait in the backlog of a listener that never accepts: no server thread.
        let (listener, port) = try LoopbackListener.listen(backlog: 1024)
        defer { close(listener) }
        let engine = try HTTPEngine(limitPerHost: 500, totalLimit: 500)
        // The engine's thread is there before counting.
        _ = try? await engine.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .milliseconds(50)), waiting: { _ in })
        let before = threadCount()
        let requests = (0..<500).map { _ in
            Task {
                try await engine.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .seconds(60)), waiting: { _ in })
            }
        }
        #expect(await eventually { Self.establishedConnections(to: port) >= 500 })
        let during = threadCount()
        let started = ContinuousClock.now
        requests.forEach { $0.cancel() }
        for request in requests { _ = try? await request.value }
        #expect(ContinuousClock.now - started < .seconds(3), "500 cancelled requests end at once, not in 60 s")
        #expect(during - before < 10, "\(before) threads before, \(during) with 500 requests under way")
    }

    /// Connections from this machine to `port` the kernel holds as established
    /// (`/proc/net/tcp`), both ends counted once: the client's.
    static func establishedConnections(to port: UInt16) -> Int {
        // Read to the end: procfs files have no size.
        let bytes = FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data()
        let text = String(decoding: bytes, as: UTF8.self)
        let remote = String(format: ":%04X", port)
        return text.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2].hasSuffix(remote) && fields[3] == "01"
        }.count
    }
}
