extension LoadingPresentation: Encodable {
    fileprivate enum CodingKeys: String, CodingKey {
        case type, position, contentOpacity, alignment, spacing, message
    }

    /// `{"type": name, …options}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .material:
            try container.encode("material", forKey: .type)
        case .horizontal(let position, let contentOpacity, let alignment, let spacing):
            try container.encode("horizontal", forKey: .type)
            try container.encode(position, forKey: .position)
            try container.encodeStack(contentOpacity, alignment, spacing)
        case .vertical(let position, let contentOpacity, let alignment, let spacing):
            try container.encode("vertical", forKey: .type)
            try container.encode(position, forKey: .position)
            try container.encodeStack(contentOpacity, alignment, spacing)
        case .overCurrentContent(let contentOpacity, let alignment):
            try container.encode("overCurrentContent", forKey: .type)
            try container.encode(contentOpacity, forKey: .contentOpacity)
            try container.encode(alignment, forKey: .alignment)
        case .redacted:
            try container.encode("redacted", forKey: .type)
        case .custom(let message):
            try container.encode("custom", forKey: .type)
            try container.encode(message, forKey: .message)
        }
    }
}

extension KeyedEncodingContainer<LoadingPresentation.CodingKeys> {
    fileprivate mutating func encodeStack(
        _ contentOpacity: Double,
        _ alignment: some Encodable,
        _ spacing: Double
    ) throws {
        try encode(contentOpacity, forKey: .contentOpacity)
        try encode(alignment, forKey: .alignment)
        try encode(spacing, forKey: .spacing)
    }
}
