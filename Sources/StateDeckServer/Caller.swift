/// Who made a request, as the gate identified them: the name an action is signed with, and the
/// role that decides what they may do.
public struct Caller: Sendable, Equatable {
    public let name: String
    public let role: AccessRole

    public init(name: String, role: AccessRole) {
        self.name = name
        self.role = role
    }

    /// Whoever reaches a server that asks for no token: only this machine's own users can.
    public static let local = Caller(name: "local", role: .designer)

    /// Whoever sent an action nothing names: the least role, since nothing says more.
    public static let unknown = Caller(name: "unknown", role: .viewer)
}
