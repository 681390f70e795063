import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A docker panel whose engine socket StateDeck may not open: the served binary, run as `nobody`
/// when the tests run as root (who opens any socket), meets EACCES from a socket of the test's own
/// that only root may open, and shows the card that says which socket and how to be let in.
@Suite struct DockerSocketPermissionTests {
    @Test func aSocketStateDeckMayNotOpenIsNotAuthorizedNamingTheSocketAndTheGroup() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-docker-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/docker.sock"
        let engine = try TestHTTPServer(routes: [:], socketPath: socket)
        chmod(socket, geteuid() == 0 ? 0o600 : 0)
        let deck = folder + "/deck.yaml"
        try Data("panels:\n  - { id: web, title: Web, docker: { container: web, socket: \(socket) }, retry: none }\n".utf8)
            .write(to: URL(fileURLWithPath: deck))
        chmod(deck, 0o644)
        let server = try ServingProcess(["--config", deck, "--port", "0", "--data", "none"], asNobody: geteuid() == 0)
        defer { server.stop() }
        let port = try #require(try await server.port())
        let card = try #require(await eventuallyValue { () -> [String: Any]? in
            let answer = try? await offPool { try HTTPTestClient.request("GET", "/api/panels/web", port: port, headers: [("Host", "127.0.0.1:\(port)")]) }
            let panel = answer.flatMap { try? JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any] }
            return panel?["latestError"] as? [String: Any]
        })
        #expect(card["kind"] as? String == "unauthorized")
        #expect(card["failureReason"] as? String == "StateDeck may not open \(socket).")
        let suggestion = try #require(card["recoverySuggestion"] as? String)
        #expect(suggestion.hasPrefix("Add the user ") && suggestion.contains(" to the docker group (sudo usermod -aG docker "),
                "\(suggestion)")
        if geteuid() == 0 { #expect(suggestion.hasPrefix("Add the user nobody ")) }
        #expect(engine.requests.isEmpty, "nothing reached the engine")
    }
}
