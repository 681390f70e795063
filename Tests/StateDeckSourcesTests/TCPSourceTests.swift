import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

@Suite("TCPSource")
struct TCPSourceTests {
    @Test func anOpenPortGivesTheConnectLatency() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let info = try await TCPSource(host: "127.0.0.1", port: Int(port)).load()
        #expect(info.summary == "Port \(port) open")
        #expect(info.fields?.first == Info.Field("Address", "127.0.0.1:\(port)"))
        #expect(info.fields?.last?.label == "Connect")
    }

    @Test func aHostNameIsResolved() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        _ = try await TCPSource(host: "localhost", port: Int(port)).load()
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try LoopbackListener.closedPort()
        let error = await panelError { try await TCPSource(host: "127.0.0.1", port: Int(port)).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func aListenerThatNeverAcceptsTimesOut() async throws {
        let (listener, port) = try LoopbackListener.listen(backlog: 0)
        defer { close(listener) }
        // Fill the accept queue: further connection requests are dropped, not refused.
        let fillers = (0..<4).map { _ in TestSocket.connectingWithoutWaiting(to: Int(port)) }
        defer { fillers.forEach { $0.close() } }
        let started = ContinuousClock.now
        let error = await panelError { try await TCPSource(host: "127.0.0.1", port: Int(port), timeout: .milliseconds(300)).load() }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func anUnknownHostIsUnreachable() async {
        let error = await panelError { try await TCPSource(host: "no-such-host.invalid", port: 80).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "The name no-such-host.invalid does not resolve.")
    }
}
