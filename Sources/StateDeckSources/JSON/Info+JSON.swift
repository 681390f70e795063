import FoundationEssentials
import StateDeck

extension Info {
    /// The keys of an Info document: an object with only these is read as Info itself.
    static let documentKeys: Set<String> = ["summary", "fields", "items", "image", "text"]

    /// Info from a JSON document (`text` is its source, for reading Info-shaped objects).
    init(json: JSONValue, text: String) throws(PanelError) {
        switch json {
        case .object(let members) where !members.isEmpty && Set(members.keys).isSubset(of: Self.documentKeys):
            do {
                self = try JSONDecoder().decode(Info.self, from: Data(text.utf8))
            } catch {
                throw PanelError(.invalidResponse, failureReason: "The JSON has Info's keys but not its shape.",
                                 detail: String(describing: error))
            }
        case .object(let members):
            // JSON objects have no order; sorted labels keep the panel steady between loads.
            self.init(fields: members.sorted { $0.key < $1.key }.map { Field($0.key, $0.value.displayText) })
        case .array(let elements):
            self.init(items: elements.enumerated().map { Item(json: $0.element, position: $0.offset) })
        default:
            self.init(summary: json.displayText)
        }
    }
}

private extension Info.Item {
    /// An item from an array element: an object's `id` (or `name`, or its position), `title` (or
    /// `name`, or the id) and `subtitle` (or `status`); any other value is its own title.
    init(json: JSONValue, position: Int) {
        guard case .object(let members) = json else {
            let title = json.displayText
            self.init(id: json.isScalar ? title : String(position), title: title)
            return
        }
        let id = (members["id"] ?? members["name"])?.displayText ?? String(position)
        let title = (members["title"] ?? members["name"])?.displayText ?? id
        self.init(id: id, title: title, subtitle: (members["subtitle"] ?? members["status"])?.displayText)
    }
}

private extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
