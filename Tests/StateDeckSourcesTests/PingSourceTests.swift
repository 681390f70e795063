import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

/// Pings over the loopback interfaces of the test's own machine, through the process's echo
/// channels (a raw socket where the tests run as root without `ping_group_range`, else a
/// datagram one).
@Suite("PingSource")
struct PingSourceTests {
    @Test(arguments: ["127.0.0.1", "::1"])
    func aLoopbackAddressAnswersEveryPing(host: String) async throws {
        let info = try await PingSource(host: host).load()
        #expect(info.summary == "Reachable")
        #expect(info.fields == [Info.Field("Address", host)])
        let readings = try #require(info.readings)
        #expect(readings.map(\.label) == ["Round trip (min / avg / max)", "Loss"])
        #expect(readings[1].value == "0 % (0 of 3)")
        #expect(readings[0].value.hasSuffix(" ms"))
    }

    @Test func aHostNameIsResolved() async throws {
        let info = try await PingSource(host: "localhost", count: 1).load()
        #expect(["127.0.0.1", "::1"].contains(info.fields?.first?.value))
    }

    @Test func fiftyPingsAtOnceAreEachAnswered() async throws {
        let infos = try await withThrowingTaskGroup(of: Info.self) { group in
            for _ in 0..<50 { group.addTask { try await PingSource(host: "127.0.0.1", count: 2).load() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(infos.count == 50)
        #expect(infos.allSatisfy { $0.readings?.last?.value == "0 % (0 of 2)" })
    }

    @Test func aNameThatDoesNotResolveSaysSo() async throws {
        let error = await panelError { try await PingSource(host: "no-such-host.invalid", count: 1).load() }
        #expect(error?.kind == .unreachable)
        #expect(error?.failureReason == "The name no-such-host.invalid does not resolve.")
    }

    @Test func aSlowAverageFailsItsCondition() async throws {
        let source = PingSource(host: "127.0.0.1", conditions: [.under(.nanoseconds(1))])
        let error = await panelError { try await source.load() }
        #expect(error?.kind == .checkFailed)
        #expect(error?.failureReason?.hasPrefix("Round trips averaged ") == true)
        #expect(error?.failureReason?.hasSuffix(", expected under 0 ms.") == true)
    }

    @Test func aCancelledPingEndsAtOnce() async throws {
        let started = ContinuousClock.now
        let task = Task { try await PingProbe(host: "127.0.0.1", count: 10, timeout: .seconds(2), interval: .seconds(1)).ping() }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func roundTripsAreWrittenWithThreeSignificantDigits() {
        #expect(PingSource.millisecondsText(.microseconds(52)) == "0.052 ms")
        #expect(PingSource.millisecondsText(.microseconds(4_312)) == "4.31 ms")
        #expect(PingSource.millisecondsText(.microseconds(48_260)) == "48.3 ms")
        #expect(PingSource.millisecondsText(.microseconds(120_400)) == "120 ms")
    }

    @Test func theWholeChecksLimitCoversEveryRequest() {
        #expect(PingSource(host: "h", count: 3, timeout: .seconds(2)).checkTimeout == .milliseconds(2_400))
        #expect(PingSource(host: "h", count: 1, timeout: .seconds(1)).checkTimeout == .seconds(1))
    }

    @Test func aSystemThatAllowsNoICMPSocketSaysHowToAllowOne() throws {
        let refusal = "StateDeck may open neither an ICMP datagram socket (Permission denied) nor a raw socket (Operation not permitted)."
        #expect(throws: PanelError.self) { try PingSource(host: "203.0.113.7").info(for: .failure(.notPermitted(refusal))) }
        do {
            _ = try PingSource(host: "203.0.113.7").info(for: .failure(.notPermitted(refusal)))
        } catch {
            #expect(error.kind == .unauthorized)
            #expect(error.failureReason == refusal)
            #expect(error.recoverySuggestion?.contains("net.ipv4.ping_group_range") == true)
            #expect(error.recoverySuggestion?.contains("CAP_NET_RAW") == true)
        }
    }
}

/// Pings inside network namespaces the tests make (`PingNetwork`): loss, silence, unreachable
/// hosts and missing routes, never an address outside the machine. Serialized: each test makes
/// and removes namespaces of its own, a few at a time.
@Suite("PingSource in a network namespace", .serialized)
struct PingNamespaceTests {
    @Test(arguments: EchoSocket.Kind.allCases)
    func eachKindOfSocketPingsAHostThatAnswers(kind: EchoSocket.Kind) async throws {
        let network = try PingNetwork()
        defer { network.close() }
        let channels = try network.channels(kinds: [kind])
        let report = try await probe(network.address(PingNetwork.answering), channels: channels).get()
        #expect(report.received == 3)
        let loopback = try await probe("::1", channels: channels).get()
        #expect(loopback.received == 3, "IPv6 through the same kind of socket")
    }

    @Test func aHostThatNeverAnswersTimesOut() async throws {
        let network = try PingNetwork()
        defer { network.close() }
        let outcome = try await probe(network.address(PingNetwork.silent), count: 2, timeout: .milliseconds(300),
                                      channels: network.channels(kinds: [.datagram]))
        let error = try #require(throwing(PingSource(host: "silent", count: 2, timeout: .milliseconds(300)), outcome))
        #expect(error.kind == .timeout)
        #expect(error.failureReason == "No answer to 2 pings within 300 ms.")
    }

    @Test func aHostThatAnswersSomePingsShowsTheLossAndFailsALossCondition() async throws {
        let network = try PingNetwork()
        defer { network.close() }
        let outcome = try await probe(network.address(PingNetwork.rateLimited), count: 4, timeout: .milliseconds(300),
                                      channels: network.channels(kinds: [.datagram]))
        let report = try outcome.get()
        #expect(report.received == 1, "the first reply, then none for a minute")
        let source = PingSource(host: "lossy", count: 4, timeout: .milliseconds(300))
        let info = try source.info(for: outcome)
        #expect(info.summary == "Reachable", "one answer is enough without a condition")
        #expect(info.readings?.last == Info.Field("Loss", "75 % (3 of 4)"))
        let strict = PingSource(host: "lossy", count: 4, timeout: .milliseconds(300), conditions: [.lossBelow(0.5)])
        let error = try #require(throwing(strict, outcome))
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason == "3 of 4 pings went unanswered (75 %), expected under 50 %.")
    }

    @Test(arguments: EchoSocket.Kind.allCases)
    func aHostNobodyAnswersForIsUnreachable(kind: EchoSocket.Kind) async throws {
        let network = try PingNetwork()
        defer { network.close() }
        let outcome = try await probe(network.address(PingNetwork.absent), count: 1, timeout: .seconds(3),
                                      channels: network.channels(kinds: [kind]))
        let report = try outcome.get()
        #expect(report.received == 0)
        #expect(report.unreachable?.reason == "No route to host")
        let error = try #require(throwing(PingSource(host: "absent", count: 1, timeout: .seconds(3)), outcome))
        #expect(error.kind == .unreachable)
        #expect(error.failureReason?.hasPrefix("absent is unreachable: No route to host") == true)
    }

    @Test(arguments: EchoSocket.Kind.allCases)
    func anAddressWithoutARouteSaysSo(kind: EchoSocket.Kind) async throws {
        let network = try PingNetwork()
        defer { network.close() }
        let outcome = try await probe("198.51.100.7", count: 1, channels: network.channels(kinds: [kind]))
        #expect(outcome == .failure(.noRoute("Network is unreachable")))
        let error = try #require(throwing(PingSource(host: "198.51.100.7", count: 1), outcome))
        #expect(error.kind == .noNetwork)
        #expect(error.failureReason == "There is no route to 198.51.100.7.")
    }

    private func probe(_ host: String, count: Int = 3, timeout: Duration = .seconds(1),
                       channels: EchoChannels) async throws -> Result<PingProbe.Report, PingProbe.Failure> {
        var probe = PingProbe(host: host, count: count, timeout: timeout, interval: .milliseconds(20))
        probe.channels = channels
        return try await probe.ping()
    }

    /// The error `source` makes of `outcome`; nil when it makes info of it.
    private func throwing(_ source: PingSource, _ outcome: Result<PingProbe.Report, PingProbe.Failure>) -> PanelError? {
        do {
            _ = try source.info(for: outcome)
            return nil
        } catch {
            return error
        }
    }
}
