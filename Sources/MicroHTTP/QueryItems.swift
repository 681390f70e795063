/// The query string's `name=value` pairs in order, each percent-decoded once (`+` as space).
public struct QueryItems: Sendable, Equatable, Sequence {
    public typealias Item = (name: String, value: String)

    private let items: [Item]

    public init(_ items: [Item] = []) {
        self.items = items
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    public var count: Int { items.count }

    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.elementsEqual(rhs.items) { $0.name == $1.name && $0.value == $1.value }
    }
}
