import MicroHTTP

/// The fast path: a file answered from the request's head (`HTTPResponder.respond(toHead:)`),
/// found by its target as sent, with nothing decoded or split.
extension StaticFiles {
    /// The answer `respond(to:)` gives a GET or HEAD of `head.target`, or nil when the target
    /// is not a file's plain spelling (an escape, a query) and must take the full way.
    func respond(toHead head: RequestHead) -> HTTPResponse? {
        guard head.method == .get || head.method == .head, let entry = headEntries[head.target] else { return nil }
        return entry.response(ifNoneMatch: head[header: "If-None-Match"])
    }

    /// These files with the targets whose path segments `isClaimed` (a route's, or one the gate
    /// checks further) left to the full way, which would not serve them as files. The segments
    /// are the ones the full way routes on: the target parsed as a request's.
    func answeringHeads(except isClaimed: ([String]) -> Bool) -> StaticFiles {
        var files = self
        files.headEntries = headEntries.filter { target, _ in
            guard let request = try? HTTPRequest(method: .get, target: target) else { return false }
            return !isClaimed(request.pathSegments)
        }
        return files
    }

    /// Each file by the target that names it with no byte to decode (the segments joined, when
    /// none holds `%` or `?`); each `index.html` also by its folder's target (`/`, `/dir/`).
    static func plainTargets(of entries: [[String]: Entry]) -> [String: Entry] {
        var targets: [String: Entry] = [:]
        for (segments, entry) in entries where !segments.contains(where: { $0.contains("%") || $0.contains("?") }) {
            targets["/" + segments.joined(separator: "/")] = entry
            if segments.last == "index.html" {
                targets["/" + segments.dropLast().map { $0 + "/" }.joined()] = entry
            }
        }
        return targets
    }
}
