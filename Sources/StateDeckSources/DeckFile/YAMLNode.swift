/// A node of a YAML document as composed from libyaml's events, with where it starts.
struct YAMLNode {
    enum Kind {
        /// `isPlain`: written without quotes, block indicator or tag, so that its text may stand
        /// for null, a bool or a number.
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        /// In the file's order; a key appears once.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    let kind: Kind
    let mark: YAMLMark

    /// In a mapping, the value of the scalar key `key`.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind else { return nil }
        return pairs.first { pair in
            if case .scalar(key, _) = pair.key.kind { return true }
            return false
        }?.value
    }
}
