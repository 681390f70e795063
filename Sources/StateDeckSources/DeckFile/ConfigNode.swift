/// A node of the deck file with its key path, for reading typed values. Every reader reports what
/// is wrong (with path and line) and returns nil, so that reading can go on.
struct ConfigNode {
    let node: YAMLNode
    let path: ConfigPath
    let reader: DeckFileReader

    func problem(_ message: String) {
        reader.report(message, at: path, mark: node.mark)
    }

    func child(_ node: YAMLNode, at component: ConfigPath.Component) -> ConfigNode {
        ConfigNode(node: node, path: path.appending(component), reader: reader)
    }

    /// The items of a list.
    func list() -> [ConfigNode]? {
        guard case .sequence(let items) = node.kind else {
            problem("must be a list")
            return nil
        }
        return items.enumerated().map { child($0.element, at: .index($0.offset)) }
    }

    /// A mapping whose keys must be among `keys`; others are reported, with the closest key when
    /// one is close enough to be a typo.
    func mapping(allowing keys: [String]) -> ConfigMapping? {
        guard let entries = entries() else { return nil }
        for entry in entries where !keys.contains(entry.key) {
            reader.report("unknown key\(entry.key.hint(among: keys))", at: entry.value.path, mark: entry.keyMark)
        }
        return ConfigMapping(node: self, entries: entries.filter { keys.contains($0.key) })
    }

    /// Every entry of a mapping whose keys are free, such as headers.
    func entries() -> [ConfigEntry]? {
        guard case .mapping(let pairs) = node.kind else {
            problem("must be a mapping of keys to values")
            return nil
        }
        return pairs.compactMap { key, value in
            guard case .scalar(let name, _) = key.kind else {
                reader.report("a key must be a plain string", at: path, mark: key.mark)
                return nil
            }
            return ConfigEntry(key: name, keyMark: key.mark, value: child(value, at: .key(name)))
        }
    }
}
