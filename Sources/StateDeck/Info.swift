/// Display-ready data a panel shows once loaded: the page draws it as sent and never interprets it.
///
/// Every field is optional and left out of the JSON when nil.
public struct Info: Sendable, Hashable, Codable {
    /// One line that sums the state up, such as "3 jobs queued".
    public var summary: String?
    /// Label and value pairs.
    public var fields: [Field]?
    /// A list whose entries can carry actions (declared with `Panel.itemAction`).
    public var items: [Item]?
    /// The address of an image.
    public var image: String?
    /// Free text, such as the tail of a log.
    public var text: String?
    /// Measurements of the load that gave this info, such as a ping's round trips: label and
    /// value pairs that differ at nearly every check. The deck takes them out of the info it
    /// keeps and shows them as the panel's `readings`, a measurement like its load time: a load
    /// whose info differs only in its readings is not a change, and the history keeps none.
    public var readings: [Field]?

    public init(
        summary: String? = nil,
        fields: [Field]? = nil,
        items: [Item]? = nil,
        image: String? = nil,
        text: String? = nil,
        readings: [Field]? = nil
    ) {
        self.summary = summary
        self.fields = fields
        self.items = items
        self.image = image
        self.text = text
        self.readings = readings
    }

    /// A label and its value.
    public struct Field: Sendable, Hashable, Codable {
        public var label: String
        public var value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// What the debug `loaded` command shows for a panel that has no placeholder.
    public static let sample = Info(
        summary: "Sample data",
        fields: [Field("Status", "OK"), Field("Version", "1.0.0")],
        items: [Item(id: "sample-1", title: "First item"), Item(id: "sample-2", title: "Second item")]
    )
}
