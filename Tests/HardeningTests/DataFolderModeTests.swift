import DeckTestSupport
import Foundation
import Glibc
import TestSupport
import Testing

extension Live {
    /// What `statedeck` writes in its data folder is its owner's alone (0600), in a folder that
    /// already exists with 0755 and under a umask of 000, and what it finds there wider is narrowed.
    @Suite struct DataFolderModeTests {
        static let yaml = """
            title: Modes
            panels:
              - id: backup
                title: Backup
                heartbeat: { period: 1h, grace: 10m }
            """

        /// Each file of `folder` by name, with its permission bits.
        static func modes(in folder: String) throws -> [String: mode_t] {
            var modes: [String: mode_t] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                var status = stat()
                try #require(lstat(folder + "/" + name, &status) == 0)
                modes[name] = status.st_mode & 0o7777
            }
            return modes
        }

        /// Serves the deck with `data` under a umask of 000 until its history has a log, and
        /// returns the modes seen while serving, then stops it.
        static func serve(_ folder: DeckFolder, data: String) async throws -> [String: mode_t] {
            let server = try StatedeckProcess(arguments: ["--config", folder.path("deck.yaml"), "--data", data, "--port", "0"], umask: "000")
            defer { server.kill() }
            let port = try #require(await server.port(), "statedeck printed no address")
            _ = try await offPool { try HTTPTestClient.request("GET", "/api/state", port: port) }
            // The writer saves within a second, which makes the write-ahead log and its index.
            let logged = await eventually(timeout: .seconds(10)) {
                (try? Self.modes(in: data))?.keys.contains("history.sqlite3-wal") == true
            }
            try #require(logged, "no log was made: \((try? Self.modes(in: data)) ?? [:])")
            let modes = try Self.modes(in: data)
            server.signal(SIGTERM)
            #expect(await server.exitStatus(timeout: .seconds(5)) == 0)
            return modes
        }

        @Test func everyFileInAnOpenFolderIsMadeAndKept0600WhateverTheUmask() async throws {
            let folder = try DeckFolder(yaml: Self.yaml)
            defer { folder.remove() }
            let data = folder.path("data")
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o755])
            let serving = try await Self.serve(folder, data: data)
            for name in ["history.sqlite3", "history.sqlite3-wal", "history.sqlite3-shm", "lock", "ping-keys.json"] {
                #expect(serving[name] == 0o600, "\(name): \(String(serving[name] ?? 0, radix: 8))")
            }
            #expect(serving.values.allSatisfy { $0 == 0o600 }, "\(serving)")
            for (name, mode) in try Self.modes(in: data) {
                #expect(mode == 0o600, "\(name) after the stop: \(String(mode, radix: 8))")
            }
        }

        @Test func filesFoundWiderAreNarrowedWhenOpened() async throws {
            let folder = try DeckFolder(yaml: Self.yaml)
            defer { folder.remove() }
            let data = folder.path("data")
            _ = try await Self.serve(folder, data: data)
            for name in try FileManager.default.contentsOfDirectory(atPath: data) {
                #expect(chmod(data + "/" + name, 0o644) == 0)
            }
            let keys = try String(contentsOfFile: data + "/ping-keys.json", encoding: .utf8)
            let serving = try await Self.serve(folder, data: data)
            #expect(serving.values.allSatisfy { $0 == 0o600 }, "\(serving)")
            #expect(try String(contentsOfFile: data + "/ping-keys.json", encoding: .utf8) == keys, "the keys were kept, not made anew")
        }
    }
}
