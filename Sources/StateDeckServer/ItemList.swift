/// One list of the state document kept item by item (the incidents, the maintenance windows
/// active and next), so that a change of one item is sent and kept as that item alone: its JSON
/// as encoded once, in the list's order. An operator's change then costs what the one incident or
/// window weighs, however many others the list holds.
struct ItemList: Sendable, Equatable {
    /// One item: its key (an incident's id; a window's id and start), what it sorts by, its JSON.
    struct Item: Sendable, Equatable {
        var key: String
        var order: Order
        var json: [UInt8]
    }

    /// What an item sorts by: a time as the state writes it (fixed width, so its text sorts as it
    /// does), then the id.
    struct Order: Sendable, Equatable, Comparable {
        var time: String
        var id: String

        static func < (first: Order, second: Order) -> Bool {
            (first.time, first.id) < (second.time, second.id)
        }
    }

    /// One item that changed: its new JSON, or nil when it left the list.
    struct Change: Sendable, Equatable {
        var key: String
        var json: [UInt8]?
    }

    /// Newest first (the incidents, by opening) rather than oldest first (the windows, by start).
    let newestFirst: Bool
    private(set) var items: [Item] = []

    init(newestFirst: Bool, items: [Item] = []) {
        self.newestFirst = newestFirst
        replace(with: items)
    }

    /// The list as a JSON array, in its order.
    var json: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += item.json
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// Holds `newItems` in place of the items held, and returns what changed: each item new or
    /// different, then each that left, in the list's order.
    @discardableResult
    mutating func replace(with newItems: [Item]) -> [Change] {
        let old = Dictionary(items.map { ($0.key, $0.json) }, uniquingKeysWith: { $1 })
        items = newItems.sorted(by: inOrder)
        let keys = Set(items.map(\.key))
        let changed = items.filter { old[$0.key] != $0.json }.map { Change(key: $0.key, json: $0.json) }
        let gone = old.keys.filter { !keys.contains($0) }.sorted().map { Change(key: $0, json: nil) }
        return changed + gone
    }

    /// Holds `item` in place of the one of its key, or drops the item of `key` for nil.
    mutating func apply(_ item: Item?, key: String) {
        items.removeAll { $0.key == key }
        guard let item else { return }
        items.insert(item, at: items.firstIndex { inOrder(item, $0) } ?? items.endIndex)
    }

    private func inOrder(_ first: Item, _ second: Item) -> Bool {
        newestFirst ? second.order < first.order : first.order < second.order
    }
}

extension ItemList {
    /// The items of a fixture's list, each as the fixture wrote it: its key from its `id` and its
    /// `time` member (`key`), what it sorts by from the same. A value other than a list holds none.
    init(fixture: FixtureJSON?, time: String, newestFirst: Bool, key: (String, String) -> String) {
        guard case .array(let values)? = fixture else {
            self.init(newestFirst: newestFirst)
            return
        }
        let items = values.map { value in
            let (id, at) = (value["id"]?.text ?? "", value[time]?.text ?? "")
            return Item(key: key(id, at), order: Order(time: at, id: id), json: value.bytes)
        }
        self.init(newestFirst: newestFirst, items: items)
    }
}
