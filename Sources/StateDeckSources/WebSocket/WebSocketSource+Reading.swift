import FoundationEssentials
import StateDeck

extension WebSocketSource {
    static let keys = ["url", "send", "expect", "timeout", "trustedRoots"]

    /// `{ url, send, expect, timeout, trustedRoots }`; an `expect` naming `message` needs a
    /// message to `send`. A relative `trustedRoots` starts at the deck file's folder.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let url = map.required("url")?.webSocketURL()
        let message = map["send"].map { $0.string() } ?? .some(nil)
        let limit = map["timeout"]?.duration()
        let expect = map["expect"].flatMap { MessageCondition.list(reading: $0, timeout: limit ?? timeout) }
        let roots = map["trustedRoots"].map { $0.text().map(node.reader.resolve) } ?? .some(nil)
        let checksAnswer = expect?.contains { if case .message = $0 { true } else { false } } ?? false
        if checksAnswer, map["send"] == nil {
            map["expect"]?.problem("a condition on the message needs one to answer: give send")
        }
        guard let url, let message, let roots, map["expect"] == nil || expect != nil, !checksAnswer || message != nil else {
            return nil
        }
        self.init(url: url, message: message, timeout: limit ?? timeout, conditions: expect ?? [], trustedRoots: roots)
    }
}

extension ConfigNode {
    func webSocketURL() -> URL? {
        guard let text = string() else { return nil }
        guard let url = URL(string: text), ["ws", "wss"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else {
            problem("must be a ws or wss URL")
            return nil
        }
        return url
    }
}
