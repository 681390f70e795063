import Foundation

/// A hermetic `Public/` folder: a few servable files, plus things that must never be served
/// (a dotfile, symbolic links to a file outside the folder, to `/etc/passwd` and to `/etc`).
struct PublicFolder: Sendable {
    /// Content no answer may ever contain: every file that must not be served holds it, and so
    /// does `/etc/passwd`.
    static let forbiddenMarker = "root:"

    static let files: [String: String] = [
        "index.html": "<!doctype html><title>StateDeck test</title><script src=\"app.js\"></script>\n",
        "app.js": "console.log('statedeck test');\n",
        "styles.css": "body { margin: 0; }\n",
        "dir/file.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
    ]

    /// Served files and their content types, as PROTOCOL.md's table wants them.
    static let contentTypes: [(path: String, type: String)] = [
        ("index.html", "text/html; charset=utf-8"),
        ("app.js", "text/javascript; charset=utf-8"),
        ("styles.css", "text/css; charset=utf-8"),
        ("dir/file.svg", "image/svg+xml"),
    ]

    /// The temporary folder holding `Public/` and, beside it, a file that is outside it.
    let root: URL

    var url: URL { root.appendingPathComponent("Public") }

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("statedeck-servertests-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(at: url.appendingPathComponent("dir"), withIntermediateDirectories: true)
        for (path, content) in Self.files {
            try Data(content.utf8).write(to: url.appendingPathComponent(path))
        }
        let outside = root.appendingPathComponent("outside.txt")
        try Data("root:outside-secret\n".utf8).write(to: outside)
        try Data("root:dotfile-secret\n".utf8).write(to: url.appendingPathComponent(".secret"))
        try manager.createSymbolicLink(at: url.appendingPathComponent("outside.txt"), withDestinationURL: outside)
        try manager.createSymbolicLink(atPath: url.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: url.appendingPathComponent("etc").path, withDestinationPath: "/etc")
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
