/// A mapping of the deck file whose keys were checked against the allowed ones.
struct ConfigMapping {
    let node: ConfigNode
    let entries: [ConfigEntry]

    subscript(key: String) -> ConfigNode? {
        entries.first { $0.key == key }?.value
    }

    /// The value of `key`, reported missing (at the mapping's line) when absent.
    func required(_ key: String) -> ConfigNode? {
        if let value = self[key] { return value }
        node.reader.report("is required", at: node.path.appending(.key(key)), mark: node.node.mark)
        return nil
    }

    /// Which of `keys` are present, in the file's order.
    func present(_ keys: [String]) -> [String] {
        entries.map(\.key).filter(keys.contains)
    }
}
