import StateDeck

/// One entry of a deck file's `groups`: a heading and the settings its panels start from.
public struct GroupSpec: Sendable, Hashable {
    /// Unique in the file, `[a-z0-9-]+`; panels name it in their `group` key.
    public var group: PanelGroup
    /// The file's defaults overridden by the group's `defaults`; a panel's own keys override these.
    public var settings: PanelSettings

    /// A group of a deck file, built in code.
    public init(group: PanelGroup, settings: PanelSettings = PanelSettings()) {
        self.group = group
        self.settings = settings
    }
}

// MARK: - Reading

extension GroupSpec {
    static let keys = ["id", "title", "defaults"]

    /// Reads one entry of `groups`, its `defaults` applied over the file's.
    init?(reading node: ConfigNode, defaults: PanelSettings) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let id = map.required("id")?.identifier()
        let title = map["title"]?.text()
        let settings = map["defaults"]?.mapping(allowing: PanelSettings.keys).map(defaults.overridden(by:))
        guard let id else { return nil }
        self.init(group: PanelGroup(id, title: title), settings: settings ?? defaults)
    }

    /// The groups of a `groups` list, each id once.
    static func list(reading node: ConfigNode, defaults: PanelSettings) -> [GroupSpec]? {
        guard let items = node.list() else { return nil }
        let groups = items.map { GroupSpec(reading: $0, defaults: defaults) }
        ConfigNode.reportReusedIds(zip(items, groups.map { $0?.group.id }))
        return groups.compactMap(\.self)
    }
}

extension ConfigNode {
    /// A panel's `group`: one of `declared` when the file has a `groups` list, else any id, which
    /// is then also the group's title and has the file's `defaults`.
    func group(among declared: [GroupSpec]?, defaults: PanelSettings) -> GroupSpec? {
        guard let id = identifier() else { return nil }
        guard let declared else { return GroupSpec(group: PanelGroup(id), settings: defaults) }
        if let group = declared.first(where: { $0.group.id == id }) { return group }
        problem("no group \(id) in groups\(id.hint(among: declared.map(\.group.id)))")
        return nil
    }
}
