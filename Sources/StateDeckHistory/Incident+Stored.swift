import FoundationEssentials
import StateDeck

extension Incident {
    /// An `incidents` row's columns, as both stores keep them: times in milliseconds since 1970,
    /// the panels and the updates as JSON (each update's `at` in milliseconds too).
    public struct StoredColumns: Sendable, Equatable {
        public var id: String
        public var title: String
        public var panels: String
        public var opened: Int64
        /// Nil while open.
        public var resolved: Int64?
        public var updates: String

        public init(id: String, title: String, panels: String, opened: Int64, resolved: Int64?, updates: String) {
            self.id = id
            self.title = title
            self.panels = panels
            self.opened = opened
            self.resolved = resolved
            self.updates = updates
        }

        /// Rows of incidents resolved before this (milliseconds since 1970) are deleted at `now`.
        public static func cutoff(now: Int64) -> Int64 {
            now - Int64(Incident.keptFor / .milliseconds(1))
        }
    }

    /// One update as the `updates` column keeps it.
    private struct StoredUpdate: Codable {
        var at: Int64
        var status: Status
        var message: String
        var author: String
    }

    public var stored: StoredColumns {
        let updates = self.updates.map { StoredUpdate(at: $0.at.millisecondsSince1970, status: $0.status,
                                                      message: $0.message, author: $0.author) }
        return StoredColumns(id: id, title: title, panels: Self.json(panels), opened: openedAt.millisecondsSince1970,
                             resolved: resolvedAt?.millisecondsSince1970, updates: Self.json(updates))
    }

    /// The incident a row keeps; nil for a row this version cannot read (a status it does not know).
    public init?(stored row: StoredColumns) {
        guard let panels = try? JSONDecoder().decode([String].self, from: Data(row.panels.utf8)),
              let updates = try? JSONDecoder().decode([StoredUpdate].self, from: Data(row.updates.utf8)),
              !updates.isEmpty else { return nil }
        self.init(id: row.id, title: row.title, panels: panels, updates: updates.map {
            Update(at: Date(millisecondsSince1970: $0.at), status: $0.status, message: $0.message, author: $0.author)
        })
    }

    private static func json(_ value: some Encodable) -> String {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
