/// A number StateDeck gave that the model says is false, and where in the run it was read.
public struct Divergence: Sendable, Hashable, CustomStringConvertible {
    /// The index of the step after which it was read.
    public var step: Int
    /// What was read, what it was and what it should have been.
    public var finding: String

    public var description: String { "after step \(step): \(finding)" }
}
