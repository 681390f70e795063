/// One key and its value in a mapping.
struct ConfigEntry {
    let key: String
    /// Where an unknown key is reported.
    let keyMark: YAMLMark
    let value: ConfigNode
}
