import MicroHTTP
import StateDeck
import StateDeckHistory

/// The state document's `maintenance` item by item: the windows holding (`active`) and the next
/// stretch of each declared one (`next`), each an ``ItemList`` by start then id, an item's key
/// its id and start (`api-1@2026-12-01T02:00:00.000Z`: a recurring window has one id for all its
/// stretches). A change is sent as the `window` event of the one window and kept as its form.
struct WindowLists: Sendable, Equatable {
    enum List: String, Sendable, Codable {
        case active, next
    }

    /// One window that changed in one list: its JSON, or nil when it left the list.
    struct Change: Sendable, Equatable {
        var list: List
        var key: String
        var json: [UInt8]?

        /// The part its moments keep it as.
        var part: MomentForm.Part {
            list == .active ? .activeWindow(key) : .nextWindow(key)
        }

        /// The `window` event: `{"list", "key", "window": Window}`, the window null when it left.
        var event: [UInt8] {
            Array(#"{"list":""#.utf8) + Array(list.rawValue.utf8) + Array(#"","key":"#.utf8) + Array(JSONString.quoted(key).utf8)
                + Array(#","window":"#.utf8) + (json ?? Array("null".utf8)) + [UInt8(ascii: "}")]
        }
    }

    /// A `window` event as a held copy reads it.
    struct Event: Sendable, Decodable {
        var list: List
        var key: String
        var window: MaintenanceSpan?
    }

    private(set) var active = ItemList(newestFirst: false)
    private(set) var next = ItemList(newestFirst: false)

    init(active: ItemList = ItemList(newestFirst: false), next: ItemList = ItemList(newestFirst: false)) {
        self.active = active
        self.next = next
    }

    /// The lists a fixture's `maintenance` holds, each window as the fixture wrote it.
    init(_ fixture: FixtureJSON) {
        self.init(active: ItemList(fixture: fixture["active"], time: "from", newestFirst: false, key: Self.key),
                  next: ItemList(fixture: fixture["next"], time: "from", newestFirst: false, key: Self.key))
    }

    /// A window's key in its list: its id and the start of its stretch, as the state writes it.
    static func key(id: String, from: String) -> String {
        "\(id)@\(from)"
    }

    /// `{"active": [Window], "next": [Window]}`.
    var json: [UInt8] {
        Array(#"{"active":"#.utf8) + active.json + Array(#","next":"#.utf8) + next.json + [UInt8(ascii: "}")]
    }

    /// Each window as the part its moments keep, with its JSON.
    var forms: [(MomentForm.Part, [UInt8])] {
        active.items.map { (MomentForm.Part.activeWindow($0.key), $0.json) } + next.items.map { (MomentForm.Part.nextWindow($0.key), $0.json) }
    }

    /// Holds `status` in place of the windows held, and returns each window that changed.
    @discardableResult
    mutating func replace(with status: MaintenanceStatus, encoder: JSONBytesEncoder) -> [Change] {
        active.replace(with: Self.items(of: status.active, encoder: encoder)).map { Change(list: .active, key: $0.key, json: $0.json) }
            + next.replace(with: Self.items(of: status.next, encoder: encoder)).map { Change(list: .next, key: $0.key, json: $0.json) }
    }

    /// Holds the window `event` carries, or drops the one of its key.
    mutating func apply(_ event: Event, encoder: JSONBytesEncoder) {
        let item = Self.items(of: event.window.map { [$0] } ?? [], encoder: encoder).first
        switch event.list {
        case .active: active.apply(item, key: event.key)
        case .next: next.apply(item, key: event.key)
        }
    }

    private static func items(of spans: [MaintenanceSpan], encoder: JSONBytesEncoder) -> [ItemList.Item] {
        spans.compactMap { span in
            let from = DeckJSON.timestamp(span.from)
            return (try? encoder.encode(span)).map {
                ItemList.Item(key: key(id: span.id, from: from), order: ItemList.Order(time: from, id: span.id), json: $0)
            }
        }
    }
}
