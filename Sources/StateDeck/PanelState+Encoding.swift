extension PanelState: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

extension PanelState.Fields: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, title, group, phase, health, isInitialLoading, isLoading, latestValidInfo, latestInfo
        case latestValidError, latestError, latestNonLoading, modifyingIds, history, presentation
        case placeholder, retry, debugPinned, stale, restored, queued, locations, locationsSummary, loadMs, readings
        case heartbeat, maintenance, dependsOn, probableCauses, flapping
    }

    /// Every documented field is written, nil ones as JSON null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(group, forKey: .group)
        try container.encode(phase, forKey: .phase)
        try container.encode(health, forKey: .health)
        try container.encode(isInitialLoading, forKey: .isInitialLoading)
        try container.encode(isLoading, forKey: .isLoading)
        try container.encode(latestValidInfo, forKey: .latestValidInfo)
        try container.encode(latestInfo, forKey: .latestInfo)
        try container.encode(latestValidError, forKey: .latestValidError)
        try container.encode(latestError, forKey: .latestError)
        try container.encode(latestNonLoading, forKey: .latestNonLoading)
        try container.encode(modifyingIds, forKey: .modifyingIds)
        try container.encode(history, forKey: .history)
        try container.encode(presentation, forKey: .presentation)
        try container.encode(placeholder, forKey: .placeholder)
        try container.encode(retry, forKey: .retry)
        try container.encode(debugPinned, forKey: .debugPinned)
        try container.encode(stale, forKey: .stale)
        try container.encode(restored, forKey: .restored)
        try container.encode(queued, forKey: .queued)
        try container.encode(locations, forKey: .locations)
        try container.encode(locationsSummary, forKey: .locationsSummary)
        try container.encode(loadMs, forKey: .loadMs)
        try container.encode(readings, forKey: .readings)
        try container.encode(heartbeat, forKey: .heartbeat)
        try container.encode(maintenance, forKey: .maintenance)
        try container.encode(dependsOn, forKey: .dependsOn)
        try container.encode(probableCauses, forKey: .probableCauses)
        try container.encode(flapping, forKey: .flapping)
    }
}

extension PanelState.Outcome: Encodable {
    private enum CodingKeys: String, CodingKey {
        case info, error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .info(let info): try container.encode(info, forKey: .info)
        case .error(let card): try container.encode(card, forKey: .error)
        }
    }
}
