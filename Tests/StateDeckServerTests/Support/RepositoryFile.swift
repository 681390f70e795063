import Foundation

/// A file of this repository, read by the tests that keep the docs true of the code.
enum RepositoryFile {
    /// The repository's root: this file is `Tests/StateDeckServerTests/Support/RepositoryFile.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of `path`, relative to the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}
