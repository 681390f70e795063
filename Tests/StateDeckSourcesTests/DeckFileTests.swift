import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

@Suite("DeckFile")
struct DeckFileTests {
    static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/stack.yaml").path

    @Test func theExampleLoads() throws {
        let deck = try DeckFile.load(path: Self.example, environment: [:])
        #expect(deck.title == "Local stack")
        #expect(deck.panels.map(\.id) == ["api", "db", "worker", "build", "backup", "site-address", "site-certificate",
                                          "gateway", "site-domain", "web-container", "mail", "live-feed", "orders", "app-database",
                                          "shop-database", "cache"])
        #expect(deck.status?.components.map(\.name) == ["API", "Services"])
        let api = deck.panels[0]
        let http = try #require(api.source.http)
        #expect(http.url.absoluteString == "http://127.0.0.1:3000/health")
        let conditions: [ResponseCondition] = [
            .status(StatusSet([200...200])),
            .pointer(JSONPointer("/status")!, .equals(.string("ok"))),
            .pointer(JSONPointer("/queue/depth")!, .below(100)),
            .header("Content-Type", .matches(try TextPattern("^application/json"))),
            .under(.milliseconds(500)),
        ]
        #expect(http.conditions == conditions)
        #expect(try #require(deck.panels[1].source.tcp).conditions == [.under(.milliseconds(100))])
        #expect(http.picks.map(\.label) == ["Version", "Uptime"])
        #expect(http.timeout == .seconds(2))
        #expect(api.settings.refresh == .every(.seconds(10)))
        #expect(api.settings.retry == RetryPolicy(attempts: 3, initialDelay: .seconds(1), maximumDelay: .seconds(10)))
        #expect(api.settings.presentation.initialLoading == .redacted)
        #expect(api.placeholder?.fields?.first == Info.Field("Status", "200"))
        #expect(api.recovery.map(\.id) == ["restart-api"])
        #expect(api.recovery.first?.action?.message == "API restarted, checking it again")
        #expect(deck.panels[2].settings.retry == .none)
        #expect(deck.panels[2].actions.map(\.id) == ["restart", "logs-to-file"])
        #expect(deck.panels.map(\.group?.id) == ["services", "services", "services", "tooling", "tooling", "services", "services",
                                                "services", "services", "services", "services", "services", "services", "services",
                                                "services", "services"])
        #expect(deck.panels[3].settings.refresh == .manual, "from its group's defaults")
        let backup = try #require(deck.panels[4].source.heartbeat)
        #expect(backup.expectation == .schedule(try CronSchedule(parsing: "30 2 * * *")))
        #expect(backup.zone.name == "Europe/Paris")
        #expect(backup.grace == .seconds(3_600))
        #expect(deck.panelsWithoutPingKeys == ["backup"])
        let site = try #require(deck.panels[5].source.dns)
        #expect(site == DNSSource(name: "example.com", type: .a, timeout: .seconds(2)))
        #expect(deck.panels[6].source.tls == TLSSource(host: "example.com", timeout: .seconds(5)))
        #expect(deck.panels[7].source.ping == PingSource(host: "127.0.0.1", count: 3, timeout: .seconds(2),
                                                         conditions: [.lossBelow(0.5), .under(.milliseconds(100))]))
        #expect(deck.panels[8].source.domain == DomainSource(name: "example.com", timeout: .seconds(5)))
        #expect(deck.panels[9].source.docker?.socket == "/var/run/docker.sock")
        #expect(deck.panels[9].source.docker?.timeout == .seconds(2))
        #expect(deck.panels[10].source.smtp == SMTPSource(host: "127.0.0.1", timeout: .seconds(5)))
        #expect(deck.panels[11].source.websocket?.conditions == [.message(.contains("pong")), .under(.milliseconds(200))])
        #expect(deck.panels[12].source.grpc == GRPCSource(host: "127.0.0.1", port: 50051, service: "shop.Orders",
                                                          timeout: .seconds(2)))
        let postgres = try #require(deck.panels[13].source.postgres)
        #expect(postgres.url == DatabaseURL(scheme: "postgres", user: "monitor", host: "127.0.0.1", port: 5432, database: "app"))
        #expect(postgres.conditions == [.column("status", .equals("ok")), .column("queued", .below(100)), .rows(.above(0)),
                                        .under(.milliseconds(200))])
        #expect(deck.panels[14].source.mysql?.conditions == [.column("pending", .below(500))])
        #expect(deck.panels[15].source.redis?.command == ["LLEN", "jobs"])
        #expect(deck.statedeckPanel)
    }

    @Test func relativePathsStartAtTheFilesFolder() throws {
        let deck = try DeckFile.load(path: Self.example, environment: [:])
        let folder = URL(fileURLWithPath: Self.example).deletingLastPathComponent()
        let file = try #require(deck.panels[3].source.file)
        #expect(file.path == folder.deletingLastPathComponent().appendingPathComponent("build/status.json").path)
        let command = try #require(deck.panels[2].source.command)
        #expect(command.command.workingDirectory == folder.standardizedFileURL.path)
        #expect(deck.panels[3].recovery.first?.action?.command.workingDirectory == folder.deletingLastPathComponent().path)
    }

    @Test func aTildeIsTheHomeFolderOfTheEnvironment() throws {
        let deck = try parse("""
            panels:
              - { id: notes, file: { path: ~/notes.txt } }
              - { id: home, file: { path: "~" } }
              - { id: other, file: { path: ~ada/notes.txt } }
            """, environment: ["HOME": "/home/ada"])
        let paths = deck.panels.map { panel -> String? in
            guard case .file(let file) = panel.source else { return nil }
            return file.path
        }
        #expect(paths == ["/home/ada/notes.txt", "/home/ada", "/stack/~ada/notes.txt"])
    }

    @Test func environmentVariablesAreSubstituted() throws {
        let deck = try DeckFile.load(path: Self.example, environment: ["API_URL": "https://api.test:8443", "PGPORT": "6543"])
        let http = try #require(deck.panels[0].source.http)
        let tcp = try #require(deck.panels[1].source.tcp)
        #expect(http.url.absoluteString == "https://api.test:8443/health")
        #expect(tcp.port == 6543)
    }

    @Test func dollarsAreKeptOrEscaped() throws {
        let deck = try parse("""
            panels:
              - id: job
                command: { shell: 'echo "$HOME" $${NOT_A_VARIABLE} ${NAME:-world}' }
            """)
        let command = try #require(deck.panels[0].source.command)
        #expect(command.command.arguments.last == #"echo "$HOME" ${NOT_A_VARIABLE} world"#)
    }

    /// An error card reaches every viewer: it names a command as the file writes it, never with
    /// the environment's values it was given.
    @Test func aFailingCommandsCardNamesItAsWrittenWithoutTheEnvironmentsValues() async throws {
        let deck = try DeckFile.parse("""
            panels:
              - id: run
                command: { run: [sh, -c, "exit 3", "${API_TOKEN}"] }
              - id: shell
                command: { shell: 'echo "${API_TOKEN}" >&2; exit 4' }
            """, file: "deck.yaml", folder: "/tmp", environment: ["API_TOKEN": "s3cret-from-env"])
        let run = try #require(deck.panels[0].source.command)
        let shell = try #require(deck.panels[1].source.command)
        #expect(run.command.arguments.last == "s3cret-from-env", "the command runs with the value")
        for (source, shown) in [(run, "`sh -c exit 3 ${API_TOKEN}` exited with status 3."),
                                (shell, #"`echo "${API_TOKEN}" >&2; exit 4` exited with status 4."#)] {
            do {
                _ = try await source.load()
                Issue.record("\(shown): the command did not fail")
            } catch let error as PanelError {
                #expect(error.failureReason == shown)
            }
        }
    }

    @Test func anHTTPSourcesCardsNameItsURLAsWrittenWithoutItsPassword() throws {
        let deck = try parse("""
            panels:
              - { id: keyed, http: { url: "https://api.test/health?key=${API_KEY}" } }
              - { id: signed-in, http: { url: "https://ops:hunter2-pass@api.test/health" } }
              - { id: both, http: { url: "https://ops:${PASS}@api.test/health?key=${API_KEY}" } }
            """, environment: ["API_KEY": "s3cret-key", "PASS": "s3cret-pass"])
        let shown = deck.panels.compactMap(\.source.http?.shownURL)
        #expect(shown == ["https://api.test/health?key=${API_KEY}", "https://api.test/health", "https://api.test/health?key=${API_KEY}"])
        #expect(deck.panels[0].source.http?.url.absoluteString == "https://api.test/health?key=s3cret-key", "requested with the value")
    }

    @Test func aJSONFileLoads() throws {
        let deck = try parse(#"{"title": "JSON deck", "panels": [{"id": "db", "tcp": {"host": "localhost", "port": 5432}}]}"#)
        #expect(deck.title == "JSON deck")
        #expect(deck.panels.first?.title == "db")
        #expect(deck.panels.first?.source == .tcp(TCPSource(host: "localhost", port: 5432, timeout: .seconds(10))))
    }

    @Test func aMissingFileIsReported() {
        #expect(throws: DeckFileError(problems: [
            DeckFileProblem(file: "/no/such/deck.yaml", line: nil, path: "", message: "no such file"),
        ])) { try DeckFile.load(path: "/no/such/deck.yaml") }
    }

    func parse(_ text: String, environment: [String: String] = [:]) throws -> DeckFile {
        try DeckFile.parse(text, file: "deck.yaml", folder: "/stack", environment: environment)
    }

    /// No count of panels is refused: memory bounds a deck, and the file's size bounds what is read.
    @Test func aDeckHoldsMorePanelsThanOnceAllowed() throws {
        let panels = (0..<20_000).map { "  - { id: p\($0), tcp: { host: localhost, port: 1 } }\n" }.joined()
        #expect(try parse("panels:\n" + panels).panels.count == 20_000)
    }

    @Test func aDeckFileOverItsSizeLimitIsRefusedUnread() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("panels:\n", to: "deck.yaml")
        // Sparse: the size is past the limit without writing 64 MiB.
        #expect(truncate(path, off_t(DeckFile.maximumBytes) + 1) == 0)
        #expect(throws: DeckFileError(problems: [
            DeckFileProblem(file: path, line: nil, path: "",
                            message: "is 67108865 bytes; a deck file holds at most 67108864 (64 MiB)"),
        ])) { try DeckFile.load(path: path) }
    }

    /// Every problem on its own line: each key given again is reported, not only the first.
    @Test func everyRepeatedKeyIsReported() {
        #expect(throws: DeckFileError(problems: [
            DeckFileProblem(file: "deck.yaml", line: 2, path: "", message: "the key title is given again (first on line 1)"),
            DeckFileProblem(file: "deck.yaml", line: 3, path: "", message: "the key tcp is given again (first on line 3)"),
            DeckFileProblem(file: "deck.yaml", line: 6, path: "", message: "the key title is given again (first on line 5)"),
        ])) {
            try parse("""
                title: A
                title: B
                panels: [{ id: db, tcp: { host: localhost, port: 1 }, tcp: { host: x, port: 2 } },
                         { id: db2,
                           title: X,
                           title: Y, tcp: { host: localhost, port: 1 } }]
                """)
        }
    }

    @Test func aDeckFileThatIsNotUTF8SaysSoWithItsLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("latin1.yaml")
        try Data(Array("title: Caf".utf8) + [0xE9] + Array("\npanels: []\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(throws: DeckFileError(problems: [
            DeckFileProblem(file: path, line: 1, path: "", message: "is not UTF-8 text: save it as UTF-8"),
        ])) { try DeckFile.load(path: path) }
    }

    @Test(.timeLimit(.minutes(1))) func aNamedPipeAsTheDeckFileIsRefusedWithoutBlocking() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("deck.yaml")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: DeckFileError(problems: [
            DeckFileProblem(file: path, line: nil, path: "", message: "is not a regular file (a folder, named pipe or device)"),
        ])) { try DeckFile.load(path: path) }
    }

    @Test func aByteOrderMarkAndCRLFLinesAreRead() throws {
        let deck = try parse("\u{FEFF}title: Saved on Windows\r\npanels:\r\n  - { id: db, tcp: { host: localhost, port: 5432 } }\r\n")
        #expect(deck.title == "Saved on Windows")
        #expect(deck.panels.map(\.id) == ["db"])
    }
}
