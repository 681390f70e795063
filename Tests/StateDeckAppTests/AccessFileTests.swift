import Foundation
import StateDeckServer
@testable import StateDeckApp
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The access file: entries of a name, a role and a token's SHA-256. Each bad entry is a problem
/// naming the file and its line; the file itself must be a regular file only its owner may read.
@Suite struct AccessFileTests {
    static let digest = "sha256:" + String(repeating: "ab", count: 32)
    static let other = "sha256:" + String(repeating: "cd", count: 32)

    /// The problems of `text` as `access.yaml`, one a line.
    static func problems(_ text: String) -> String {
        do {
            _ = try AccessFile.parse(text, file: "access.yaml")
            return ""
        } catch {
            return error.description
        }
    }

    @Test func readsFlowAndBlockEntries() throws {
        let list = try AccessFile.parse("""
            # who may reach the deck
            - {name: "alice", role: designer, hash: "\(Self.digest)"}
            - name: ci-bot@example
              role: viewer
              hash: \(Self.other.uppercased().replacingOccurrences(of: "SHA256", with: "sha256"))
            """, file: "access.yaml")
        #expect(list.entries.map(\.name) == ["alice", "ci-bot@example"])
        #expect(list.entries.map(\.role) == [.designer, .viewer])
        #expect(list.entries.map(\.digest.description) == [Self.digest, Self.other])
        #expect(try AccessFile.parse("# nobody yet\n", file: "access.yaml").entries.isEmpty)
    }

    @Test func eachBadEntryIsAProblemOnItsLine() {
        #expect(Self.problems("""
            - {name: alice, role: admin, hash: "\(Self.digest)"}
            - {name: bob, role: viewer, hash: 8ppnu3UaTRyzwwXajaI5EWucy7a3AO4FKrirGyldbcY}
            - {name: carol, role: viewer, hash: "sha256:abc"}
            - {name: dave, role: viewer, hash: "\(Self.digest)"}
            - {name: dave, role: operator, hash: "\(Self.other)"}
            - {name: "eve smith", role: viewer, hash: "\(Self.other)"}
            - {name: frank, role: viewer}
            - {name: grace, role: viewer, hash: "\(Self.other)", token: x}
            - just a line
            - {name: heidi, role: viewer, hash: "\(Self.digest)"}
            """) == """
            access.yaml:1: role admin is not a role: one of viewer, operator, designer
            access.yaml:2: hash must be sha256: and the 64 hex digits of the token's SHA-256, never the token itself: add entries with statedeck token add
            access.yaml:3: hash must be sha256: and the 64 hex digits of the token's SHA-256, never the token itself: add entries with statedeck token add
            access.yaml:5: the name dave is given again (first on line 4)
            access.yaml:6: name eve smith: use 1 to 64 letters, digits, '.', '_', '-' or '@'
            access.yaml:7: an entry needs a hash
            access.yaml:8: an entry has only the keys name, role and hash
            access.yaml:9: each entry is a mapping: - {name: …, role: …, hash: …}
            access.yaml:10: the same token as dave on line 4: give each caller a token of their own
            """)
    }

    @Test func badYAMLOrAnotherShapeIsAProblemOnItsLine() {
        #expect(Self.problems("- {name: alice, role: viewer\n- x\n")
            == "access.yaml:3: YAML syntax: did not find expected ',' or '}' (while parsing a flow mapping on line 1)")
        #expect(Self.problems("\n\nname: alice\n") == "access.yaml:3: must be a list of entries, each - {name, role, hash}")
        #expect(Self.problems("- {name: a, name: b, role: viewer, hash: \"\(Self.digest)\"}") == "access.yaml:1: the key name is given again (first on line 1)")
    }

    @Test func aFileOthersMayReadIsRefusedWithTheChmodToRun() throws {
        let path = FileManager.default.temporaryDirectory.path + "/access-\(UUID().uuidString).yaml"
        defer { unlink(path) }
        try Data("- {name: alice, role: viewer, hash: \"\(Self.digest)\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        for mode: mode_t in [0o644, 0o640, 0o602] {
            chmod(path, mode)
            #expect(Self.loadProblem(path) == "\(path): may be read by others (mode \(String(mode, radix: 8))): run chmod 600 \(path)")
        }
        chmod(path, 0o600)
        #expect(try AccessFile.load(path: path).entries.map(\.name) == ["alice"])
    }

    @Test func aMissingFileAFolderOrNonUTF8IsRefusedNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/access-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o700)
        #expect(Self.loadProblem(folder + "/missing.yaml") == "\(folder)/missing.yaml: cannot be read: No such file or directory")
        #expect(Self.loadProblem(folder) == "\(folder): is not a regular file (a folder, named pipe or device)")
        let binary = folder + "/binary.yaml"
        try Data([0x2D, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: binary))
        chmod(binary, 0o600)
        #expect(Self.loadProblem(binary) == "\(binary): is not UTF-8 text")
    }

    @Test func addingWritesTheDigestNeverTheTokenAndRefusesANameTwice() throws {
        let path = FileManager.default.temporaryDirectory.path + "/access-\(UUID().uuidString).yaml"
        defer { unlink(path) }
        let token = try AccessFile.add(name: "alice", role: .operator, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == AccessFile.header + AccessFile.line(name: "alice", role: .operator, digest: TokenDigest(of: "\(token)")))
        #expect(!text.contains("\(token)"))
        #expect(throws: AccessFileError.self) { try AccessFile.add(name: "alice", role: .viewer, to: path) }
        #expect(throws: AccessFileError.self) { try AccessFile.add(name: "two words", role: .viewer, to: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let list = try AccessFile.load(path: path)
        #expect(list.entries.map(\.name) == ["alice"])
    }

    static func loadProblem(_ path: String) -> String {
        do {
            _ = try AccessFile.load(path: path)
            return ""
        } catch {
            return error.description
        }
    }
}
