/// The fixed table of content types served from `Public/`.
enum ContentType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "ico": "image/x-icon",
        "json": "application/json",
        "webmanifest": "application/manifest+json",
        "woff2": "font/woff2",
        "txt": "text/plain; charset=utf-8",
    ]

    /// A file's type from its extension; unknown ones are served as opaque bytes.
    static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else {
            return "application/octet-stream"
        }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
