import FoundationEssentials
import StateDeck
import StateDeckHistory

/// `GET /status/feed.atom`: the status page's incidents and its lines' changes of state, as Atom 1.0
/// (RFC 4287), newest first.
///
/// | entry | title | updated | content |
/// | --- | --- | --- | --- |
/// | an incident | `[Status] title` | its last update | every update, newest first, with its time and status |
/// | a line's change | `Name is down` (up, degraded, …) | when it changed | the same, with the time |
///
/// Ids are `urn:uuid:` URIs made from the page's title and what the entry is (an incident's key, a
/// change's line, state and time), so they stay the same across restarts. The feed's author is the
/// page's title: who wrote an update is not the public's. Links are relative to the feed.
enum StatusFeed {
    /// A line of the page that changed state, and when.
    struct Change: Sendable, Equatable {
        var name: String
        var state: StatusFacts.State
        var at: Date
    }

    /// The changes kept in the feed.
    static let changeCount = 50

    static func render(_ facts: StatusFacts, changes: [Change]) -> [UInt8] {
        var entries: [(updated: Date, xml: String)] = facts.incidents.map { ($0.updates.last?.at ?? $0.openedAt, entry($0, in: facts)) }
        entries += changes.map { ($0.at, entry($0, in: facts)) }
        entries.sort { $0.updated > $1.updated }
        let updated = entries.first?.updated ?? facts.generatedAt
        let title = StatusHTML.text(facts.title)
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title>\(title)</title>
            <id>\(uuid("feed", facts.title))</id>
            <updated>\(StatusHTML.iso(updated))</updated>
            <author><name>\(title)</name></author>
            <link rel="self" type="application/atom+xml" href="/status/feed.atom"/>
            <link rel="alternate" type="text/html" href="/status"/>

            """
        xml += entries.map(\.xml).joined()
        xml += "</feed>\n"
        return Array(xml.utf8)
    }

    private static func entry(_ incident: StatusFacts.PublicIncident, in facts: StatusFacts) -> String {
        let updated = incident.updates.last?.at ?? incident.openedAt
        let content = incident.updates.reversed().map { update in
            "\(StatusHTML.when(update.at)), \(update.status.rawValue): \(update.message)"
        }
        let affects = incident.isAnnouncement ? "Announcement" : "Affects " + incident.affects.joined(separator: ", ")
        return """
            <entry>
            <title>[\(incident.status.rawValue.capitalized)] \(StatusHTML.text(incident.title))</title>
            <id>\(uuid("incident", facts.title, incident.key))</id>
            <published>\(StatusHTML.iso(incident.openedAt))</published>
            <updated>\(StatusHTML.iso(updated))</updated>
            <link rel="alternate" type="text/html" href="/status"/>
            <content type="text">\(StatusHTML.text(([affects] + content).joined(separator: "\n")))</content>
            </entry>

            """
    }

    private static func entry(_ change: Change, in facts: StatusFacts) -> String {
        let title = StatusHTML.text("\(change.name) is \(change.state.name)")
        return """
            <entry>
            <title>\(title)</title>
            <id>\(uuid("change", facts.title, change.name, change.state.name, String(change.at.millisecondsSince1970)))</id>
            <updated>\(StatusHTML.iso(change.at))</updated>
            <link rel="alternate" type="text/html" href="/status"/>
            <content type="text">\(title) since \(StatusHTML.when(change.at)).</content>
            </entry>

            """
    }

    /// A version 8 UUID (RFC 9562) of two 64-bit FNV-1a hashes of `parts`: the same parts, the same id.
    static func uuid(_ parts: String...) -> String {
        let key = Array(parts.joined(separator: "\u{1F}").utf8)
        var bytes = hash(key, basis: 0xCBF2_9CE4_8422_2325) + hash(key, basis: 0x6C62_272E_07BB_0142)
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.lowercaseHex
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { hex.dropFirst($0.lowerBound).prefix($0.count) }
        return "urn:uuid:" + groups.joined(separator: "-")
    }

    private static func hash(_ bytes: [UInt8], basis: UInt64) -> [UInt8] {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) }
    }
}

extension StatusFeed {
    /// The newest changes of state of `page`'s lines, from the last `perPanel` stored changes of
    /// each of their panels: a panel's result up or down (a debug command's aside), a line's state
    /// folded from its panels' as the page folds them.
    static func changes(of page: StatusPage, in history: any HistoryStore,
                        perPanel: Int = 20) throws(HistoryStoreError) -> [Change] {
        var changes: [Change] = []
        for component in page.components {
            var steps: [(at: Date, panel: String, state: StatusFacts.State)] = []
            for id in component.panels {
                for entry in try history.changes(of: id, HistoryQuery(limit: perPanel)).entries where !entry.debug {
                    switch entry.state {
                    case .loaded: steps.append((entry.at, id, .up))
                    case .error: steps.append((entry.at, id, .down))
                    default: break
                    }
                }
            }
            var states: [String: StatusFacts.State] = [:]
            var last: StatusFacts.State?
            for step in steps.sorted(by: { $0.at < $1.at }) {
                states[step.panel] = step.state
                let state = StatusFacts.combined(Array(states.values))
                if state != last, last != nil || state != .up {
                    changes.append(Change(name: component.name, state: state, at: step.at))
                }
                last = state
            }
        }
        return Array(changes.sorted { $0.at > $1.at }.prefix(changeCount))
    }
}
