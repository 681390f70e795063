import FoundationEssentials

extension Incident.Update: Codable {
    private enum CodingKeys: String, CodingKey {
        case at, status, message, author
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(status, forKey: .status)
        try container.encode(message, forKey: .message)
        try container.encode(author, forKey: .author)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(at: try container.decode(Date.self, forKey: .at), status: try container.decode(Incident.Status.self, forKey: .status),
                  message: try container.decode(String.self, forKey: .message),
                  author: try container.decode(String.self, forKey: .author))
    }
}

extension Incident: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, panels, status, openedAt, resolvedAt, updates
    }

    /// The incident document of PROTOCOL.md: what it is, its status, when it opened and was
    /// resolved (null while open), and its updates oldest first; times as the rest of the state
    /// writes them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(panels, forKey: .panels)
        try container.encode(status, forKey: .status)
        try container.encode(openedAt, forKey: .openedAt)
        try container.encode(resolvedAt, forKey: .resolvedAt)
        try container.encode(updates, forKey: .updates)
    }

    /// Read back from its document (a replica following the `incidents` event): the status and
    /// times follow from the updates.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let updates = try container.decode([Update].self, forKey: .updates)
        guard !updates.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .updates, in: container, debugDescription: "no updates")
        }
        self.init(id: try container.decode(String.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
                  panels: try container.decode([String].self, forKey: .panels), updates: updates)
    }
}
