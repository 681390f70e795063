import FoundationEssentials

/// `GET /status/state.json`: the page's facts for programs, key by key (docs/PROTOCOL.md, "The
/// public status page"). Each key is written here by name; nothing is encoded whole from a deck's
/// document.
extension StatusFacts: Encodable {
    private enum Keys: String, CodingKey {
        case title, description, logo, links, state, summary, generatedAt, firstDay, lines, incidents
    }

    private enum LinkKeys: String, CodingKey { case title, url }
    private enum LineKeys: String, CodingKey { case name, state, uptime, days }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(logo, forKey: .logo)
        var links = container.nestedUnkeyedContainer(forKey: .links)
        for link in self.links {
            var nested = links.nestedContainer(keyedBy: LinkKeys.self)
            try nested.encode(link.title, forKey: .title)
            try nested.encode(link.url, forKey: .url)
        }
        try container.encode(overall.name, forKey: .state)
        try container.encode(summary, forKey: .summary)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(firstDay.map(StatusHTML.date), forKey: .firstDay)
        var lines = container.nestedUnkeyedContainer(forKey: .lines)
        for line in self.lines {
            var nested = lines.nestedContainer(keyedBy: LineKeys.self)
            try nested.encode(line.name, forKey: .name)
            try nested.encode(line.state.name, forKey: .state)
            try nested.encode(line.uptime, forKey: .uptime)
            try nested.encode(line.days?.map(StatusHTML.dayState), forKey: .days)
        }
        try container.encode(incidents, forKey: .incidents)
    }
}

extension StatusFacts.PublicIncident: Encodable {
    private enum Keys: String, CodingKey {
        case title, status, announcement, affects, openedAt, resolvedAt, updates
    }

    private enum UpdateKeys: String, CodingKey { case at, status, message }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(title, forKey: .title)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(isAnnouncement, forKey: .announcement)
        try container.encode(affects, forKey: .affects)
        try container.encode(openedAt, forKey: .openedAt)
        try container.encode(resolvedAt, forKey: .resolvedAt)
        var updates = container.nestedUnkeyedContainer(forKey: .updates)
        for update in self.updates {
            var nested = updates.nestedContainer(keyedBy: UpdateKeys.self)
            try nested.encode(update.at, forKey: .at)
            try nested.encode(update.status.rawValue, forKey: .status)
            try nested.encode(update.message, forKey: .message)
        }
    }
}
