/// A number StateDeck gave that the model says is false, and where in the run it was read.
public struct Divergence: Sendable, Hashable, CustomStringConvertible {
    /// The index of the step after which it was read.
    public var step: Int
    /// What was read, what it was and what it should have been.
    public var finding: String

    public var description: String { "after step \(step): \(finding)" }

    /// What kind of number was wrong, whatever the panel, the instant or the amounts: the finding
    /// with every run of digits written `#`. Shrinking keeps the kind it started from, so the
    /// shortest steps show the same defect, not another met on the way.
    public var kind: String {
        var kind = ""
        for character in finding where !(character.isASCII && character.isNumber) || kind.last != "#" {
            kind.append(character.isASCII && character.isNumber ? "#" : character)
        }
        return kind
    }
}
