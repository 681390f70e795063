/// What an http source's answer must contain, beyond its status.
public enum ResponseCheck: Sendable, Hashable {
    /// The body contains this text.
    case contains(String)
    /// The body is JSON whose value at the pointer equals this one.
    case equals(JSONPointer, JSONValue)
}
