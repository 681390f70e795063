import DeckTestSupport
import Foundation
import MicroHTTP
import StateDeck
import StateDeckServer
import Testing

extension Live {
    /// libmicrohttpd's own defaults bind every interface and never time out;
    /// ours are set explicitly and safe.
    @Suite("Secure defaults") struct SecureDefaultsTests {
        @Test("The transport's defaults are loopback, a 30 s timeout and bounded memory, targets, heads, bodies and connections")
        func transportDefaults() {
            let configuration = HTTPServer.Configuration()
            #expect(configuration.host == "127.0.0.1")
            #expect(configuration.connectionTimeout == .seconds(30))
            #expect(configuration.connectionMemoryLimit == 32 * 1024)
            #expect(configuration.maxTargetSize == 8 * 1024)
            #expect(configuration.maxHeadSize == 24 * 1024)
            #expect(configuration.maxBodySize == 64 * 1024)
            #expect(configuration.connectionLimit >= 16)
            #expect(configuration.connectionLimit <= FileDescriptorLimit.raiseSoftLimitToHard())
            // Off on purpose: every local tab and script shares 127.0.0.1 (see its doc comment).
            #expect(configuration.perIPConnectionLimit == 0)
        }

        @Test("A browser's request with an 8 KiB header line among its usual ones is served")
        func eightKibHeaders() async throws {
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let cookie = "session=" + String(repeating: "x", count: 8 * 1024 - "Cookie: session=".count)
                let browser: [(String, String)] = [
                    ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"),
                    ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"),
                    ("Accept-Language", "en-US,en;q=0.9"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
                    ("sec-ch-ua", #""Chromium";v="131", "Not_A Brand";v="24""#), ("sec-ch-ua-platform", #""Linux""#),
                    ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty"),
                    ("Referer", "http://\(harness.hostHeader)/"), ("Cookie", cookie),
                ]
                let response = try await harness.get("/api/state", headers: browser)
                #expect(response.status == 200)
            }
        }

        @Test("A transport server with the default host listens on 127.0.0.1 only")
        func transportBindsLoopback() async throws {
            try await TransportHarness.run { harness in
                let addresses = try ListeningSockets.addresses(port: harness.port)
                #expect(addresses == ["127.0.0.1"])
            }
        }

        @Test("The dashboard with the default host listens on 127.0.0.1 only")
        func dashboardBindsLoopback() async throws {
            try await LiveDeckServer.run(Fixtures.instantDeck(), files: Fixtures.pageFiles) { harness in
                let addresses = try ListeningSockets.addresses(port: harness.port)
                #expect(addresses == ["127.0.0.1"])
            }
        }

        @Test("The dashboard's default host is loopback, and it needs no token there")
        func dashboardConfigurationDefaults() {
            let configuration = ServerConfiguration(publicDirectory: URL(fileURLWithPath: "/tmp"))
            #expect(configuration.host == "127.0.0.1")
            #expect(configuration.isLoopback)
            #expect(configuration.token == nil)
            #expect(!configuration.debug)
        }

        @Test("An HTTP/1.1 request without Host is refused by the transport (strict for clients)")
        func strictForClients() async throws {
            try await TransportHarness.run { harness in
                let outcome = try await harness.exchange("GET /hello HTTP/1.1\r\n\r\n")
                #expect(outcome.status == 400)
                #expect(harness.requests.count == 0)
            }
        }
    }
}

/// The kernel's table of listening TCP sockets (`/proc/net/tcp` and `tcp6`).
enum ListeningSockets {
    /// The local addresses listening on `port`, dotted (IPv4) or `v6:` plus hex (IPv6).
    static func addresses(port: Int) throws -> [String] {
        var found: [String] = []
        for (file, isIPv6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
            // Read to the end: the kernel hands these files out a page per read, and
            // `String(contentsOfFile:)` stops after the first, which holds only the first ~27
            // sockets (with more servers listening, this one's could be left out).
            guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: file)).readToEnd() else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                guard columns.count > 3, columns[3] == "0A" else { continue }  // TCP_LISTEN
                let local = columns[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
                found.append(isIPv6 ? "v6:\(local[0])" : dotted(String(local[0])))
            }
        }
        return found
    }

    /// `0100007F` (little-endian hex) as `127.0.0.1`.
    private static func dotted(_ hex: String) -> String {
        let value = UInt32(hex, radix: 16) ?? 0
        return (0..<4).map { String((value >> (8 * $0)) & 0xFF) }.joined(separator: ".")
    }
}
