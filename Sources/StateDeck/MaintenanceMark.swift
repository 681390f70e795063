import FoundationEssentials

/// That a panel is under maintenance: which window, why, and until when. A panel under several
/// windows carries the one that ends last.
public struct MaintenanceMark: Sendable, Equatable {
    public var id: String
    public var reason: String
    public var until: Date

    public init(id: String, reason: String, until: Date) {
        self.id = id
        self.reason = reason
        self.until = until
    }
}

extension MaintenanceMark: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, reason, until
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(reason, forKey: .reason)
        try container.encode(DeckJSON.timestamp(until), forKey: .until)
    }
}
