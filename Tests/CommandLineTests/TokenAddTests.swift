import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `statedeck token add --access FILE NAME --role ROLE`: one token on standard output, its entry
/// (never the token) appended to the file, made with mode 0600 when missing; a name listed
/// already is status 2. A server started with `--access FILE` then lets that token in.
@Suite struct TokenAddTests {
    /// A temporary folder, removed after.
    final class Folder: Sendable {
        let path = FileManager.default.temporaryDirectory.path + "/statedeck-token-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        var access: String { path + "/access.yaml" }

        func text() throws -> String {
            try String(contentsOfFile: access, encoding: .utf8)
        }
    }

    @Test func printsOneTokenAndAppendsItsEntryToAFileMadePrivate() async throws {
        let folder = try Folder()
        let run = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "alice", "--role", "operator"])
        #expect(run.status == 0, "\(run.standardError)")
        let token = try #require(run.standardOutput.split(separator: "\n").first.map(String.init))
        #expect(run.standardOutput == token + "\n")
        #expect(token.utf8.count == 43 && token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(token)")
        #expect(run.standardError.contains("added alice (operator)"))
        var info = stat()
        #expect(stat(folder.access, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let text = try folder.text()
        #expect(!text.contains(token))
        #expect(text.hasSuffix(#"- {name: "alice", role: operator, hash: ""# + (try Self.sha256(token)) + "\"}\n"))

        let second = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "bob", "--role", "viewer"])
        #expect(second.status == 0)
        #expect(try folder.text().hasPrefix(text))
        #expect(try folder.text().split(separator: "\n").filter { $0.hasPrefix("- ") }.count == 2)
    }

    @Test func aNameListedAlreadyIsStatus2AndTheFileIsUnchanged() async throws {
        let folder = try Folder()
        _ = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "alice", "--role", "viewer"])
        let before = try folder.text()
        let run = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "alice", "--role", "designer"])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("\(folder.access): alice is listed already, as viewer"), "\(run.standardError)")
        #expect(try folder.text() == before)
    }

    @Test func anUnknownRoleIsStatus2() async throws {
        let folder = try Folder()
        let run = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "alice", "--role", "admin"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--role must be viewer, operator or designer, not admin"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.access))
    }

    @Test func theTokenOpensAServerStartedWithTheFile() async throws {
        let folder = try Folder()
        let added = try await StatedeckBinary.run(["token", "add", "--access", folder.access, "ops", "--role", "operator"])
        let token = added.standardOutput.trimmingCharacters(in: .newlines)
        let server = try ServingProcess(["--access", folder.access, "--port", "0", "--data", "none"])
        defer { server.stop() }
        let port = try #require(try await server.port())
        let state = { (headers: [(String, String)]) in
            try await offPool { try HTTPTestClient.request("GET", "/api/caller", port: port, headers: [("Host", "127.0.0.1:\(port)")] + headers) }
        }
        let allowed = try await state([("Authorization", "Bearer \(token)")])
        #expect(allowed.status == 200)
        #expect(allowed.text.hasPrefix(#"{"name":"ops","role":"operator","#), "\(allowed.text)")
        #expect(try await state([]).status == 403)
        #expect(try await state([("Authorization", "Bearer \(token)x")]).status == 403)
    }

    /// The digest as the file writes it, worked out by `sha256sum`, which is not the code under test.
    static func sha256(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return "sha256:" + String(decoding: printed.prefix(64), as: UTF8.self)
    }
}

/// `statedeck` serving, started as a child process and ended with SIGTERM.
final class ServingProcess {
    private let process: Process
    private let output: Pipe
    /// The binary's copy that `nobody` runs, removed as it stops.
    private var copied: URL?

    /// Serves with `arguments`; as the user `nobody` (through `setpriv`, which a test run as root
    /// needs to meet a permission refused) when `asNobody`, from a copy of the binary in a folder
    /// anyone may enter, since the build's may be in one only root may (such as /root).
    init(_ arguments: [String], asNobody: Bool = false) throws {
        process = Process()
        let binary = try StatedeckBinary.url()
        if asNobody {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: binary, to: copy)
            copied = copy
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", copy.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The port of the `StateDeck serving on http://…:PORT/` line, or nil if it ends first.
    func port() async throws -> Int? {
        let handle = output.fileHandleForReading
        return try await offPool {
            var printed = ""
            while !printed.contains("\n") {
                let data = handle.availableData
                if data.isEmpty { return nil }
                printed += String(decoding: data, as: UTF8.self)
            }
            let line = printed.prefix { $0 != "\n" }
            guard line.hasPrefix("StateDeck serving on ") else { return nil }
            return Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? "")
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        if let copied { try? FileManager.default.removeItem(at: copied) }
    }
}

extension TokenAddTests {
    @Test func checkReadsTheAccessFileAsStartUpDoes() async throws {
        let folder = try Folder()
        let deck = folder.path + "/deck.yaml"
        try Data("title: T\npanels:\n  - { id: a, file: { path: ./a.json } }\n".utf8).write(to: URL(fileURLWithPath: deck))
        for (name, role) in [("alice", "designer"), ("bob", "viewer"), ("carol", "viewer")] {
            _ = try await StatedeckBinary.run(["token", "add", "--access", folder.access, name, "--role", role])
        }
        let valid = try await StatedeckBinary.run(["check", deck, "--access", folder.access])
        #expect(valid.status == 0, "\(valid.standardError)")
        #expect(valid.standardOutput == "\(deck): 1 panel, OK\n\(folder.access): 3 callers: 1 designer, 2 viewers, OK\n")
        try Data("- {name: dave, role: admin, hash: \"sha256:\(String(repeating: "0", count: 64))\"}\n".utf8)
            .write(to: URL(fileURLWithPath: folder.access))
        let bad = try await StatedeckBinary.run(["check", deck, "--access", folder.access])
        #expect(bad.status == 2)
        #expect(bad.standardError == "statedeck: the access file has problems:\n\(folder.access):1: role admin is not a role: one of viewer, operator, designer\n")
        try Data("# nobody yet\n".utf8).write(to: URL(fileURLWithPath: folder.access))
        let empty = try await StatedeckBinary.run(["check", deck, "--access", folder.access])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("the access file \(folder.access) lists no one: add a token with statedeck token add"),
                "\(empty.standardError)")
    }
}
