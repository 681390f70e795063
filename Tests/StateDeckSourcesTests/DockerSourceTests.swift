import Foundation
import HTTPClient
import StateDeck
import TestSupport
import Testing
@testable import StateDeckSources

/// No container engine runs where these tests do: each serves recorded answers of the Docker
/// Engine API (`DockerEngineAnswers`: running, healthy, unhealthy with its log, exited with 137,
/// restarting, paused, no such container) on a unix socket of its own, through `TestHTTPServer`,
/// and the source asks them over libcurl as it asks a real engine. Every card a docker panel can
/// show is reached here; the one for a socket StateDeck may not open through its reason, since
/// root opens any socket (`DockerSocketPermissionTests` meets it for real, serving as `nobody`).
@Suite("DockerSource")
struct DockerSourceTests {
    /// An engine of the test's own at `docker.sock` in `folder`, answering `routes`.
    static func engine(in folder: TemporaryFolder, _ routes: [String: TestHTTPServer.Response]) throws -> TestHTTPServer {
        try TestHTTPServer(routes: routes, socketPath: folder.path("docker.sock"))
    }

    static func source(_ container: String, in folder: TemporaryFolder, timeout: Duration = .seconds(5)) -> DockerSource {
        DockerSource(container: container, socket: folder.path("docker.sock"), timeout: timeout)
    }

    /// The card of a panel on `container` whose engine answers `answer` (no engine at all when
    /// nil), and the engine's socket.
    static func card(_ container: String, answering answer: TestHTTPServer.Response?,
                     timeout: Duration = .seconds(5)) async throws -> (error: PanelError, socket: String) {
        let folder = try TemporaryFolder()
        let engine = try answer.map { try Self.engine(in: folder, ["/containers/\(container)/json": $0]) }
        defer { withExtendedLifetime(engine) {} }
        let error = try #require(await panelError { try await source(container, in: folder, timeout: timeout).load() })
        return (error, folder.path("docker.sock"))
    }

    @Test func aRunningContainerTellsItsStateRestartsImageAndStart() async throws {
        let folder = try TemporaryFolder()
        let engine = try Self.engine(in: folder, ["/containers/web/json": DockerEngineAnswers.running])
        let info = try await Self.source("web", in: folder).load()
        #expect(info.summary == "Running")
        #expect(info.fields == [Info.Field("State", "running"), Info.Field("Restarts", "0"), Info.Field("Image", "nginx:1.27"),
                                Info.Field("Started", "5 January 2026, 14:02")])
        #expect(engine.requests.first?.hasPrefix("GET /containers/web/json HTTP/1.1\r\n") == true, "no API version in the path")
    }

    @Test func aHealthyContainerTellsItsHealth() async throws {
        let folder = try TemporaryFolder()
        _ = try Self.engine(in: folder, ["/containers/api/json": DockerEngineAnswers.healthy])
        let source = Self.source("api", in: folder)
        let info = try await source.load()
        #expect(info.summary == "Running, healthy")
        #expect(info.fields?.prefix(3) == [Info.Field("State", "running"), Info.Field("Health", "healthy"), Info.Field("Restarts", "1")])
        #expect(try await source.load() == info, "a container running on as it was is no change")
    }

    @Test func aHealthcheckNotYetDecidedIsStarting() throws {
        let body = DockerEngineAnswers.healthy.body.replacingOccurrences(of: #""Status": "healthy""#, with: #""Status": "starting""#)
        let inspection = try #require(ContainerInspection(parsing: Array(body.utf8)))
        #expect(DockerSource(container: "api").info(inspection).summary == "Running, health starting")
    }

    @Test func theStartIsShownInTheDecksZone() async throws {
        let folder = try TemporaryFolder()
        _ = try Self.engine(in: folder, ["/containers/web/json": DockerEngineAnswers.running])
        var source = Self.source("web", in: folder)
        source.zone = try ZoneRules.named("Europe/Paris")
        #expect(try await source.load().fields?.last == Info.Field("Started", "5 January 2026, 15:02"))
    }

    @Test func anExitedContainerIsNotRunningSayingHowAndWhen() async throws {
        let (error, socket) = try await Self.card("worker", answering: DockerEngineAnswers.exited)
        #expect(error.kind == .containerNotRunning)
        #expect(error.title == "Container not running")
        #expect(error.failureReason == "worker exited with code 137 on 5 January 2026, 14:02.")
        #expect(error.recoverySuggestion == "Read why in its logs (docker logs worker), then start it (docker start worker).")
        #expect(error.detail == "GET /containers/worker/json at \(socket): state exited")
    }

    @Test func anExitOfTodayGivesItsTimeAlone() throws {
        let inspection = try #require(ContainerInspection(parsing: Array(DockerEngineAnswers.exited.body.utf8)))
        let evening = try ISO8601Time.parse("2026-01-05T18:00:00Z")
        let error = try #require(throws: PanelError.self) { try DockerSource(container: "worker").check(inspection, now: evening) }
        #expect(error.failureReason == "worker exited with code 137 at 14:02.")
    }

    @Test func aRestartingContainerIsNotRunning() async throws {
        let (error, _) = try await Self.card("worker", answering: DockerEngineAnswers.restarting)
        #expect(error.kind == .containerNotRunning)
        #expect(error.failureReason == "worker is restarting: it exited with code 1 on 5 January 2026, 14:01, and has restarted 5 times.")
    }

    @Test func aPausedContainerIsNotRunning() async throws {
        let (error, _) = try await Self.card("web", answering: DockerEngineAnswers.paused)
        #expect(error.kind == .containerNotRunning)
        #expect(error.failureReason == "web is paused.")
        #expect(error.recoverySuggestion == "Unpause it (docker unpause web).")
    }

    @Test func anUnhealthyContainerGivesTheLastLineOfItsHealthLog() async throws {
        let (error, _) = try await Self.card("api", answering: DockerEngineAnswers.unhealthy)
        #expect(error.kind == .containerUnhealthy)
        #expect(error.title == "Container unhealthy")
        #expect(error.failureReason
            == "api's healthcheck failed 3 times in a row: curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server")
        #expect(error.detail?.hasSuffix("exit code 1, output: % Total    % Received\ncurl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server") == true)
    }

    @Test func anUnknownContainerIsNotFound() async throws {
        let (error, socket) = try await Self.card("nope", answering: DockerEngineAnswers.noSuchContainer)
        #expect(error.kind == .containerNotFound)
        #expect(error.title == "No such container")
        #expect(error.failureReason == "The engine at \(socket) has no container nope.")
        #expect(error.detail == "GET /containers/nope/json at \(socket): 404 No such container: nope")
    }

    @Test func aFailingEngineIsAServerError() async throws {
        let (error, socket) = try await Self.card("web", answering: TestHTTPServer.Response(
            status: 500, body: #"{"message":"Cannot connect to the containerd daemon"}"#))
        #expect(error.kind == .serverError)
        #expect(error.failureReason == "The engine at \(socket) failed to answer: Cannot connect to the containerd daemon.")
    }

    @Test func anAnswerThatIsNoInspectionIsInvalid() async throws {
        let (error, _) = try await Self.card("web", answering: TestHTTPServer.Response(status: 200, body: #"{"State": "up"}"#))
        #expect(error.kind == .invalidResponse)
        #expect(error.failureReason == "The engine's answer about web is not a container's inspection.")
    }

    @Test func aSilentEngineTimesOut() async throws {
        let (error, _) = try await Self.card("web", answering: TestHTTPServer.Response(status: 200, delay: .seconds(3)),
                                             timeout: .milliseconds(500))
        #expect(error.kind == .timeout)
        #expect(error.failureReason == "No answer within 500 ms.")
    }

    @Test func aMissingSocketMeansTheEngineIsNotRunning() async throws {
        let (error, socket) = try await Self.card("web", answering: nil)
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "There is no socket at \(socket): the container engine is not running, or listens elsewhere.")
        #expect(error.recoverySuggestion == "Start the engine (sudo systemctl start docker), or set the panel's socket to the engine's.")
    }

    @Test func aSocketNobodyListensOnIsUnreachable() async throws {
        let folder = try TemporaryFolder()
        close(try UnixSocketListener.listen(at: folder.path("docker.sock")))
        let error = try #require(await panelError { try await Self.source("web", in: folder).load() })
        #expect(error.kind == .unreachable)
        #expect(error.failureReason == "Nothing accepts connections at \(folder.path("docker.sock")): the container engine is not running.")
    }

    /// The card for EACCES, which a test run as root cannot meet in this process.
    @Test func permissionDeniedIsNotAuthorizedNamingTheSocketAndTheDockerGroup() throws {
        let source = DockerSource(container: "web")
        let error = try source.failure(for: HTTPClientError(.permissionDenied, message: "Permission denied"))
        #expect(error.kind == .unauthorized)
        #expect(error.failureReason == "StateDeck may not open /var/run/docker.sock.")
        #expect(error.recoverySuggestion?.hasPrefix("Add the user ") == true)
        #expect(error.recoverySuggestion?.contains(" to the docker group (sudo usermod -aG docker ") == true)
        #expect(error.detail == "GET /containers/web/json at /var/run/docker.sock: Permission denied")
    }
}

/// A docker panel as a deck file writes it: every key, and each bad value refused naming its
/// key and line.
@Suite("DeckFile docker")
struct DeckFileDockerTests {
    @Test func readsItsKeys() throws {
        let deck = try DeckFile.parse("""
            panels:
              - id: web
                docker: { container: /web, socket: run/podman.sock, timeout: 2s }
              - id: api
                docker: { container: api }
            """, file: "deck.yaml", folder: "/stack", environment: ["TZ": "UTC"])
        #expect(deck.panels.map { $0.source.docker?.container } == ["web", "api"])
        #expect(deck.panels.map { $0.source.docker?.socket } == ["/stack/run/podman.sock", "/var/run/docker.sock"])
        #expect(deck.panels.map { $0.source.docker?.timeout } == [.seconds(2), .seconds(10)])
        #expect(deck.panels.first?.source.kind == "docker")
    }

    @Test(arguments: [
        ("docker: { socket: /run/docker.sock }", "deck.yaml:1: panels[0].docker.container: is required"),
        ("docker: { container: web, sokcet: /run/docker.sock }", "deck.yaml:1: panels[0].docker.sokcet: unknown key; did you mean socket?"),
        ("docker: { container: web/api }", #"deck.yaml:1: panels[0].docker.container: "web/api" is not a container's name or id: a letter or digit, then letters, digits, _, . or -"#),
        ("docker: { container: _web }", #"deck.yaml:1: panels[0].docker.container: "_web" is not a container's name or id: a letter or digit, then letters, digits, _, . or -"#),
        ("docker: { container: web, socket: \"\" }", "deck.yaml:1: panels[0].docker.socket: must not be empty"),
        ("docker: { container: web, timeout: fast }", #"deck.yaml:1: panels[0].docker.timeout: "fast" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
    ])
    func refusesABadValueNamingItsKeyAndLine(source: String, problem: String) {
        #expect(deckFileProblems("panels: [{ id: web, \(source) }]") == [problem])
    }
}
