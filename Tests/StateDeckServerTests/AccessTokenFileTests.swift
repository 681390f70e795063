import Foundation
import Glibc
import StateDeckServer
import Testing

/// `--token-file`: only a regular file that only its owner may read, holding one long token.
@Suite struct AccessTokenFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("statedeck-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ content: String, mode: mode_t) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test func aPrivateFileWithALongTokenIsRead() throws {
        let path = try file("token", "0123456789abcdef0123\n", mode: 0o600)
        #expect("\(try AccessToken.read(from: path))" == "0123456789abcdef0123")
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        let path = try file("token", "0123456789abcdef0123", mode: 0o644)
        #expect(throws: AccessTokenError.self) { try AccessToken.read(from: path) }
    }

    @Test func aShortTokenIsRefused() throws {
        let path = try file("token", "short", mode: 0o600)
        #expect(throws: AccessTokenError.self) { try AccessToken.read(from: path) }
    }

    /// A named pipe would block the read until something wrote to it: it is refused for what it is.
    @Test(.timeLimit(.minutes(1))) func aNamedPipeIsRefusedForWhatItIs() throws {
        let path = folder.appendingPathComponent("token.fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect {
            try AccessToken.read(from: path)
        } throws: { error in
            "\(error)" == "the token file \(path) is not a regular file (a folder, named pipe or device)"
        }
    }
}
