extension FileSource {
    /// `{ path, format, watch }`; a relative path starts at the deck file's folder.
    init?(reading node: ConfigNode) {
        guard let map = node.mapping(allowing: ["path", "format", "watch"]) else { return nil }
        let path = map.required("path")?.text()
        let format = map["format"]?.choice(of: OutputFormat.allCases)
        let watch = map["watch"]?.bool()
        guard let path else { return nil }
        self.init(path: node.reader.resolve(path), format: format ?? .auto, watch: watch ?? true)
    }
}
