import StateDeck

extension DockerSource {
    static let keys = ["container", "socket", "timeout"]

    /// `{ container, socket, timeout }`; a relative `socket` starts at the deck file's folder.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let container = map.required("container")?.containerName()
        let socket = map["socket"].map { $0.text().map(node.reader.resolve) } ?? Self.defaultSocket
        let limit = map["timeout"]?.duration()
        guard let container, let socket else { return nil }
        self.init(container: container, socket: socket, timeout: limit ?? timeout, zone: node.reader.localZone)
    }
}

extension ConfigNode {
    /// A container's name or id as the engine takes them: a letter or digit, then letters,
    /// digits, `_`, `.` and `-`. A leading `/`, as the engine writes names, is dropped.
    fileprivate func containerName() -> String? {
        guard let text = text() else { return nil }
        let name = text.hasPrefix("/") ? String(text.dropFirst()) : text
        let isNameCharacter = { (character: Character) in
            character.isASCII && (character.isLetter || character.isNumber || "_.-".contains(character))
        }
        guard let first = name.first, first.isASCII, first.isLetter || first.isNumber, name.allSatisfy(isNameCharacter) else {
            problem("\"\(text)\" is not a container's name or id: a letter or digit, then letters, digits, _, . or -")
            return nil
        }
        return name
    }
}
