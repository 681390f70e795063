/// An action (retry, recover, an item's action, a debug state) sent to a server that does not
/// run the deck, on its way to the one that does: the request as it came, once the receiving
/// server's gate let it in.
public struct ForwardedAction: Sendable, Equatable {
    public var method: String
    public var target: String
    public var body: [UInt8]

    public init(method: String, target: String, body: [UInt8]) {
        self.method = method
        self.target = target
        self.body = body
    }

    /// The leader's answer, as the route gave it.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var body: [UInt8]

        public init(status: Int, body: [UInt8]) {
            self.status = status
            self.body = body
        }
    }
}
