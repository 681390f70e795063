import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// Against the gRPC servers of `Tests/support/grpc_servers.py` (grpcio and its standard health
/// service), started by each test on free loopback ports.
@Suite("GRPCSource")
struct GRPCSourceTests {
    /// A source asking the test server `name` about `service`, over TLS for "tls" (trusting the test CA).
    static func source(_ name: String, of servers: ScriptServers, service: String = "",
                       timeout: Duration = .seconds(5)) throws -> GRPCSource {
        GRPCSource(host: name == "tls" ? "localhost" : "127.0.0.1", port: try servers.port(name), service: service,
                   tls: name == "tls", timeout: timeout, trustedRoots: servers.trustedRoots)
    }

    static func withServers<T>(_ body: (ScriptServers) async throws -> T) async throws -> T {
        try await ScriptServers.with("grpc_servers.py", body)
    }

    @Test(arguments: ["", "deck.Serving"])
    func aServingServiceIsUp(_ service: String) async throws {
        try await Self.withServers { servers in
            let port = try servers.port("plain")
            let info = try await Self.source("plain", of: servers, service: service).load()
            #expect(info.summary == "Serving")
            #expect(info.fields == [Info.Field("Service", service.isEmpty ? "(the whole server)" : service),
                                    Info.Field("Address", "127.0.0.1:\(port)")])
        }
    }

    @Test func overTLSTheCertificateIsVerified() async throws {
        try await Self.withServers { servers in
            let info = try await Self.source("tls", of: servers, service: "deck.Serving").load()
            #expect(info.summary == "Serving")
            var untrusted = try Self.source("tls", of: servers)
            untrusted.trustedRoots = nil
            let error = try #require(await panelError { try await untrusted.load() })
            #expect(error.kind == .certificateUntrusted)
            #expect(error.failureReason == "localhost's certificate is not trusted: its issuer is not trusted.")
        }
    }

    @Test(arguments: [
        ("deck.Down", ErrorKind.serviceNotServing, "deck.Down is not serving (NOT_SERVING)."),
        ("deck.Unknown", ErrorKind.serviceNotServing, "deck.Unknown does not know whether it is serving (UNKNOWN)."),
        ("deck.ServiceUnknown", ErrorKind.notFound, #"The health service of 127.0.0.1:PORT does not know "deck.ServiceUnknown"."#),
        ("deck.Nope", ErrorKind.notFound, #"The health service of 127.0.0.1:PORT does not know "deck.Nope"."#),
    ])
    func aServiceNotServingSaysWhatItIs(_ service: String, _ kind: ErrorKind, _ reason: String) async throws {
        try await Self.withServers { servers in
            let port = try servers.port("plain")
            let error = try #require(await panelError { try await Self.source("plain", of: servers, service: service).load() })
            #expect(error.kind == kind)
            #expect(error.failureReason == reason.replacingOccurrences(of: "PORT", with: "\(port)"))
        }
    }

    @Test func theServiceUnknownTellsTheGRPCStatus() async throws {
        try await Self.withServers { servers in
            let error = try #require(await panelError { try await Self.source("plain", of: servers, service: "deck.Nope").load() })
            #expect(error.detail?.hasSuffix("grpc-status 5 (NOT_FOUND)") == true, "\(error.detail ?? "")")
        }
    }

    @Test func aServerWithoutTheHealthServiceIsNotFound() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("bare")
            let error = try #require(await panelError { try await Self.source("bare", of: servers).load() })
            #expect(error.kind == .notFound)
            #expect(error.failureReason == "127.0.0.1:\(port) has no health service (UNIMPLEMENTED).")
        }
    }

    @Test func anHTTPServerIsNotGRPC() async throws {
        try await Self.withServers { servers in
            let port = try servers.port("http")
            let error = try #require(await panelError { try await Self.source("http", of: servers).load() })
            #expect(error.kind == .invalidResponse)
            #expect(error.failureReason == "127.0.0.1:\(port) does not answer in gRPC (HTTP/2 without TLS).")
        }
    }

    @Test func aSilentServerTimesOut() async throws {
        try await Self.withServers { servers in
            let error = try #require(await panelError { try await Self.source("silent", of: servers, timeout: .seconds(1)).load() })
            #expect(error.kind == .timeout)
            #expect(error.failureReason == "No answer within 1 s.")
        }
    }

    @Test func nothingListeningIsUnreachable() async throws {
        let port = try closedLoopbackPort()
        let error = try #require(await panelError { try await GRPCSource(host: "127.0.0.1", port: port, timeout: .seconds(5)).load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at 127.0.0.1:\(port).")
    }

    @Test func aCancelledCheckEndsAtOnce() async throws {
        try await Self.withServers { servers in
            let source = try Self.source("silent", of: servers, timeout: .seconds(20))
            try await expectEndsAtOnceWhenCancelled { try await source.load() }
        }
    }

    @Test func theRequestIsOneFrameOfTheServiceName() {
        #expect(GRPCHealthCheck.requestBody(service: "") == [0, 0, 0, 0, 0])
        #expect(GRPCHealthCheck.requestBody(service: "a.B") == [0, 0, 0, 0, 5, 0x0A, 3, 0x61, 0x2E, 0x42])
        #expect(GRPCHealthCheck.varint(300) == [0xAC, 0x02])
    }

    @Test func theAnswerIsReadWhateverItsOtherFields() {
        #expect(GRPCHealthCheck.servingStatus(in: [0, 0, 0, 0, 2, 0x08, 0x01]) == .serving)
        #expect(GRPCHealthCheck.servingStatus(in: [0, 0, 0, 0, 0]) == .unknown, "a missing field is its default")
        #expect(GRPCHealthCheck.servingStatus(in: [0, 0, 0, 0, 5, 0x12, 1, 0x41, 0x08, 0x02]) == .notServing)
        #expect(GRPCHealthCheck.servingStatus(in: [1, 0, 0, 0, 2, 0x08, 0x01]) == nil, "compressed")
        #expect(GRPCHealthCheck.servingStatus(in: [0, 0, 0, 0, 3, 0x08, 0x01]) == nil, "shorter than its header says")
        #expect(GRPCHealthCheck.servingStatus(in: [0, 0, 0, 0, 2, 0x08, 0x07]) == nil, "no such status")
    }
}
