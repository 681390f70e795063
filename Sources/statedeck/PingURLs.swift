import StateDeck

/// What StateDeck prints of a deck's heartbeat panels: each one's ping URL and what it expects, so
/// that whoever sets up the job can copy it. `statedeck check` prints a deck file's; the demo's
/// start prints its own, whose key StateDeck made.
enum PingURLs {
    /// A line per heartbeat panel of `panels`: its id, its ping URL on `url` and what it expects.
    /// A key StateDeck has not made yet is said to come at the first start.
    static func lines(of panels: [Panel], url: String) -> [String] {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        return panels.compactMap { panel in
            guard let heartbeat = panel.heartbeat else { return nil }
            let grace = "grace \(heartbeat.grace.lengthText)"
            guard let path = heartbeat.pingPath else {
                return "\(panel.id): its key is made when statedeck first serves this deck (\(heartbeat.expects), \(grace))"
            }
            return "\(panel.id): \(base)\(path) (\(heartbeat.expects), \(grace))"
        }
    }

    /// Prints `lines` under how a job uses them; nothing when there are none.
    static func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        Swift.print("Heartbeats: each job pings its URL (curl -fsS -m 10 --retry 3 URL), /start as it begins,")
        Swift.print("and /fail or /EXIT-STATUS as it ends badly:")
        lines.forEach { Swift.print("  " + $0) }
    }
}
