extension ConfigNode {
    /// An id of lowercase letters, digits and dashes.
    func identifier() -> String? {
        guard let text = string() else { return nil }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            problem("\"\(text)\" must be lowercase letters, digits and dashes, like api-health")
            return nil
        }
        return text
    }

    /// Reports, at its `id` key, each element of a list that reuses the id of an earlier one.
    static func reportReusedIds(_ elements: some Sequence<(ConfigNode, String?)>) {
        var seen: [String: ConfigNode] = [:]
        for (element, id) in elements {
            guard let id else { continue }
            guard let earlier = seen[id] else {
                seen[id] = element
                continue
            }
            let idNode = element.node["id"].map { element.child($0, at: .key("id")) } ?? element
            idNode.problem("\(id) is already the id of \(earlier.path)")
        }
    }
}
