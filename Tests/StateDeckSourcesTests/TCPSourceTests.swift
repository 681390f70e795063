import Foundation
import Locking
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

@Suite("TCPSource")
struct TCPSourceTests {
    @Test func anOpenPortGivesTheSameInfoAtEveryCheck() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let source = TCPSource(host: "127.0.0.1", port: Int(port))
        let info = try await source.load()
        #expect(info.summary == "Port \(port) open")
        #expect(info.fields == [Info.Field("Address", "127.0.0.1:\(port)")])
        #expect(try await source.load() == info, "the connect time is the load's duration, not the info")
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

    @Test func twoHundredProbesAtOnceEachGetTheirOwnAnswer() async throws {
        let (listener, open) = try LoopbackListener.listen(backlog: 512)
        defer { close(listener) }
        let closed = try LoopbackListener.closedPort()
        let kinds = await withTaskGroup(of: (port: UInt16, kind: ErrorKind?).self) { group in
            for index in 0..<200 {
                let port = index.isMultiple(of: 2) ? open : closed
                group.addTask {
                    do {
                        _ = try await TCPSource(host: "127.0.0.1", port: Int(port)).load()
                        return (port, nil)
                    } catch {
                        return (port, (error as? PanelError)?.kind)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(kinds.filter { $0.port == open }.allSatisfy { $0.kind == nil })
        #expect(kinds.filter { $0.port == closed }.allSatisfy { $0.kind == .unreachable })
        #expect(kinds.count == 200)
    }

    @Test func manyHangingProbesEachTimeOutAtTheirOwnDeadlineOnOneThread() async throws {
        let (listener, port) = try LoopbackListener.listen(backlog: 0)
        defer { close(listener) }
        let fillers = (0..<4).map { _ in TestSocket.connectingWithoutWaiting(to: Int(port)) }
        defer { fillers.forEach { $0.close() } }
        // The loop's thread is there before counting.
        _ = try? await TCPSource(host: "127.0.0.1", port: Int(port), timeout: .milliseconds(10)).load()
        let before = threadCount()
        let counted = Locked(0)
        let lateness = await withTaskGroup(of: Duration?.self) { group in
            for index in 0..<100 {
                let timeout = Duration.milliseconds(300 + 5 * index)
                group.addTask {
                    let started = ContinuousClock.now
                    let error = await panelError { try await TCPSource(host: "127.0.0.1", port: Int(port), timeout: timeout).load() }
                    counted.withLock { $0 = max($0, threadCount()) }
                    return error?.kind == .timeout ? ContinuousClock.now - started - timeout : nil
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(lateness.allSatisfy { $0 != nil }, "every probe timed out")
        #expect(lateness.compactMap(\.self).allSatisfy { $0 >= .zero && $0 < .milliseconds(500) }, "\(lateness)")
        #expect(counted.current - before < 10, "\(before) threads before, \(counted.current) with 100 probes waiting")
    }

    @Test func aCancelledProbeEndsAtOnce() async throws {
        let (listener, port) = try LoopbackListener.listen(backlog: 0)
        defer { close(listener) }
        let fillers = (0..<4).map { _ in TestSocket.connectingWithoutWaiting(to: Int(port)) }
        defer { fillers.forEach { $0.close() } }
        let probe = Task { try await TCPSource(host: "127.0.0.1", port: Int(port), timeout: .seconds(10)).load() }
        // Cancelled before it connects, it would end at once whatever the loop does with a probe in flight.
        try #require(await eventually { ProbeLoop.shared.clientCount >= 1 }, "the probe never began connecting")
        let started = ContinuousClock.now
        probe.cancel()
        await #expect(throws: CancellationError.self) { try await probe.value }
        #expect(ContinuousClock.now - started < .seconds(1), "the timeout is 10 s")
    }
}
