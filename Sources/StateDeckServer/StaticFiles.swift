import FoundationEssentials
import MicroHTTP
import StateDeckPage

/// Serves the page's files from a manifest built once at start: those compiled into the binary,
/// or a folder's (`--public DIR`, for work on the page).
///
/// A request is a dictionary lookup of its decoded path segments, so no spelling of `..`, `%2f`,
/// `%00` or `//` can name anything outside the folder: what is not in the manifest does not exist.
/// Only regular files are listed; symbolic links and dotfiles are left out.
public struct StaticFiles: Sendable {
    /// One file, loaded at start.
    struct Entry: Sendable {
        let body: SharedBytes
        let etag: String
        /// The headers of a 304; a 200 adds `Content-Type`.
        let validators: HTTPHeaders
        let headers: HTTPHeaders

        /// The answer to GET or HEAD: 304 if `ifNoneMatch` names this file's tag, else the file.
        func response(ifNoneMatch: String?) -> HTTPResponse {
            if ETag.matches(etag, ifNoneMatch: ifNoneMatch) {
                return HTTPResponse(status: .notModified, headers: validators)
            }
            return HTTPResponse(status: .ok, headers: headers, body: .shared(body))
        }
    }

    /// Keyed by path segments, as requests are.
    private let entries: [[String]: Entry]
    /// The same files by the targets that name them without a `%` escape, for the fast path
    /// (`StaticFiles+Head.swift`).
    var headEntries: [String: Entry]

    /// Reads every servable file below `directory`.
    public init(directory: URL) throws {
        try self.init(files: Self.regularFiles(below: directory).map { segments in
            (segments, try [UInt8](Data(contentsOf: directory.appendingPathComponent(segments.joined(separator: "/")))))
        })
    }

    /// The page compiled into the binary.
    public static let embedded = StaticFiles(files: PageFile.embedded.map { ($0.path.split(separator: "/").map(String.init), $0.bytes) })

    /// Serves `files`, each by its path's segments.
    private init(files: [(segments: [String], bytes: [UInt8])]) {
        var entries: [[String]: Entry] = [:]
        for (segments, bytes) in files {
            let etag = ETag.strong(for: bytes)
            let validators: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
            var headers = validators
            headers.add("Content-Type", ContentType.forPath(segments.joined(separator: "/")))
            entries[segments] = Entry(body: SharedBytes(bytes), etag: etag, validators: validators, headers: headers)
        }
        self.entries = entries
        headEntries = Self.plainTargets(of: entries)
    }

    /// Answers GET and HEAD for a file; 404 for anything not in the manifest, 405 for other methods.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let entry = entry(for: request.pathSegments) else {
            return .error(.notFound, code: "not_found", message: "no such file: \(request.path)")
        }
        guard request.method == .get || request.method == .head else {
            var response = HTTPResponse.error(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.method.rawValue) is not allowed on \(request.path)")
            response.headers.add("Allow", "GET, HEAD")
            return response
        }
        return entry.response(ifNoneMatch: request.headers["If-None-Match"])
    }

    /// `/` and `/dir/` mean that folder's `index.html`. Nothing else is checked, because nothing
    /// else can match: manifest segments are never empty, never start with `.`, and never hold a
    /// `/` (a decoded `%2F` keeps its segment whole, so it names no folder).
    func entry(for segments: [String]) -> Entry? {
        guard segments.last?.isEmpty ?? true else { return entries[segments] }
        return entries[segments.dropLast() + ["index.html"]]
    }
}
