import Foundation
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// A tcp source's `expect`: the banner read on the probe loop, and the time connecting took.
@Suite("ConnectionCondition")
struct ConnectionConditionTests {
    /// A listener on 127.0.0.1 that sends `chunks` to each connection, pausing 50 ms between
    /// them, then keeps the connection open for `hold` before closing it.
    final class BannerServer: Sendable {
        let port: Int
        private let listener: Int32
        /// Signalled once the accepting thread no longer uses the listener.
        private let done = DispatchSemaphore(value: 0)

        init(_ chunks: [String], hold: Double = 0) throws {
            let (listener, port) = try LoopbackListener.listen()
            self.listener = listener
            self.port = Int(port)
            Thread.detachNewThread { [done] in
                while case let client = accept(listener, nil, nil), client >= 0 {
                    for (index, chunk) in chunks.enumerated() {
                        if index > 0 { Thread.sleep(forTimeInterval: 0.05) }
                        _ = Array(chunk.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    }
                    Thread.sleep(forTimeInterval: hold)
                    close(client)
                }
                done.signal()
            }
        }

        /// Closes the listener only once its thread is out of `accept`: closed before, its number
        /// may be the next test's listener by the time the thread accepts again, and the next
        /// test's connection would get this one's banner.
        deinit {
            shutdown(listener, Int32(SHUT_RDWR))
            done.wait()
            close(listener)
        }
    }

    func load(port: Int, _ conditions: [ConnectionCondition], timeout: Duration = .seconds(5)) async throws -> Info {
        try await TCPSource(host: "127.0.0.1", port: port, timeout: timeout, conditions: conditions).load()
    }

    @Test func aBannerThatHoldsIsShown() async throws {
        let server = try BannerServer(["SSH-2.0-OpenSSH_9.2\r\n"])
        let version = try TextPattern(#"^SSH-2\.0-"#)
        let info = try await load(port: server.port, [.banner(.contains("SSH")), .banner(.matches(version))])
        #expect(info.fields?.last == Info.Field("Banner", "SSH-2.0-OpenSSH_9.2"))
    }

    @Test func aBannerThatFailsNamesWhatCame() async throws {
        let server = try BannerServer(["220 mail.example ESMTP\r\n"])
        let error = try #require(await panelError { try await load(port: server.port, [.banner(.contains("SSH"))]) })
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason == #"The banner is "220 mail.example ESMTP", expected it to contain "SSH"."#)
        #expect(error.detail == "127.0.0.1:\(server.port) sent: 220 mail.example ESMTP")
    }

    @Test func aBannerPatternThatGivesUpFailsTheCheck() async throws {
        let server = try BannerServer([String(repeating: "a", count: 25) + "b\r\n"])
        let catastrophic = try TextPattern("^(a+)+$")
        let error = try #require(await panelError { try await load(port: server.port, [.banner(.matches(catastrophic))]) })
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason == #"The banner: the pattern "^(a+)+$" gave up after 10,000,000 steps."#)
    }

    @Test func aBannerInPiecesIsReadToItsLineEnd() async throws {
        let server = try BannerServer(["SSH-2.0", "-Split", "\r\nmore"])
        let whole = try TextPattern("^SSH-2.0-Split$")
        let info = try await load(port: server.port, [.banner(.matches(whole))])
        #expect(info.fields?.last == Info.Field("Banner", "SSH-2.0-Split"))
    }

    /// A service that talks on without a line end is not waited for past 1 KiB.
    @Test func aBannerStopsAtOneKibibyte() async throws {
        let server = try BannerServer([String(repeating: "x", count: 4096)], hold: 3)
        let started = ContinuousClock.now
        let kibibyte = try TextPattern("^x{1024}$")
        _ = try await load(port: server.port, [.banner(.matches(kibibyte))], timeout: .seconds(10))
        #expect(ContinuousClock.now - started < .seconds(2), "the server keeps the connection open for 3 s")
    }

    @Test func aServiceThatClosesWithoutABannerHasNone() async throws {
        let server = try BannerServer([])
        let error = try #require(await panelError { try await load(port: server.port, [.banner(.contains("SSH"))]) })
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason == #"The banner is missing, expected it to contain "SSH"."#)
    }

    @Test func aServiceThatSendsNothingTimesOut() async throws {
        // Listening, never accepting: the kernel completes the connection, and nothing is sent.
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let started = ContinuousClock.now
        let error = try #require(await panelError {
            try await load(port: Int(port), [.banner(.contains("SSH"))], timeout: .milliseconds(300))
        })
        #expect(error.kind == .timeout)
        #expect(error.failureReason == "127.0.0.1:\(port) accepted the connection but sent no banner within 300 ms.")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func withoutABannerConditionNothingIsRead() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let info = try await load(port: Int(port), [.under(.seconds(2))], timeout: .milliseconds(300))
        #expect(info.fields == [Info.Field("Address", "127.0.0.1:\(port)")])
    }

    @Test func aConnectionSlowerThanTheLimitFails() async throws {
        let (listener, port) = try LoopbackListener.listen()
        defer { close(listener) }
        let error = try #require(await panelError { try await load(port: Int(port), [.under(.zero)]) })
        #expect(error.kind == .checkFailed)
        #expect(error.failureReason?.hasPrefix("Connected in ") == true)
        #expect(error.failureReason?.hasSuffix(", expected under 0 ms.") == true)
    }
}
