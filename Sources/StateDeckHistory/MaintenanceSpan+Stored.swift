import FoundationEssentials
import StateDeck

extension MaintenanceSpan {
    /// A `maintenance` row's columns, as both stores keep them: times in milliseconds since 1970,
    /// the panels as a JSON array.
    public struct StoredColumns: Sendable, Equatable {
        public var id: String
        public var from: Int64
        public var until: Int64
        public var reason: String
        public var panels: String
        public var source: String
        public var schedule: String?

        public init(id: String, from: Int64, until: Int64, reason: String, panels: String, source: String,
                    schedule: String?) {
            self.id = id
            self.from = from
            self.until = until
            self.reason = reason
            self.panels = panels
            self.source = source
            self.schedule = schedule
        }
    }

    public var stored: StoredColumns {
        let panels = (try? JSONEncoder().encode(self.panels)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return StoredColumns(id: id, from: from.millisecondsSince1970, until: until.millisecondsSince1970, reason: reason,
                             panels: panels, source: source.rawValue, schedule: schedule)
    }

    /// The span a row keeps; nil for a row this version cannot read (an unknown source).
    public init?(stored row: StoredColumns) {
        guard let source = Source(rawValue: row.source),
              let panels = try? JSONDecoder().decode([String].self, from: Data(row.panels.utf8)) else { return nil }
        self.init(id: row.id, reason: row.reason, panels: panels, from: Date(millisecondsSince1970: row.from),
                  until: Date(millisecondsSince1970: row.until), source: source, schedule: row.schedule)
    }
}
