import Foundation
import StateDeck
import Testing

/// A small, fast, seeded generator (SplitMix64): the same seed gives the same cases on every
/// machine, so a failure found once can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64) {
        generator = SplitMix64(state: seed)
    }

    public mutating func next() -> UInt64 {
        generator.next()
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    public mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(0..<elements.count)]
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// Text of up to `maximum` scalars drawn from `alphabet`, or from every plane when nil.
    public mutating func text(maximum: Int, alphabet: [Unicode.Scalar]? = nil) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0...maximum) {
            if let alphabet {
                scalars.append(pick(alphabet))
            } else {
                scalars.append(anyScalar())
            }
        }
        return String(scalars)
    }

    /// Any Unicode scalar, weighted towards ASCII and the troublesome ones.
    public mutating func anyScalar() -> Unicode.Scalar {
        switch int(0..<10) {
        case 0..<5: return Unicode.Scalar(UInt8(int(0...127)))
        case 5: return pick(["\r", "\n", "\0", "%", "/", "?", "#", "&", "=", "+", " ", ":"])
        case 6: return Unicode.Scalar(UInt32(int(0x80...0x7FF)))!
        case 7: return Unicode.Scalar(UInt32(int(0x800...0xD7FF)))!
        case 8: return pick(["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{202E}", "\u{FFFD}", "\u{85}"])
        default: return Unicode.Scalar(UInt32(int(0x10000...0x10FFFF)))!
        }
    }
}

/// Seeds for randomized tests: `HARDENING_SEED` when set (to replay a failure), else fresh.
public enum Seed {
    public static func make() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["HARDENING_SEED"], let seed = UInt64(text) {
            return seed
        }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }

    /// The seed of case `index` of a run seeded with `seed`: each case replays on its own.
    public static func derive(_ seed: UInt64, _ index: Int) -> UInt64 {
        var generator = SeededRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}

/// Runs `count` cases of a property, each with a generator of its own seed. The first failing
/// case is recorded with the run's seed and the case number (set `HARDENING_SEED` to replay it),
/// and the run stops there.
public func checkProperty(
    _ name: String, cases count: Int, seed: UInt64 = Seed.make(),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ property: (inout SeededRandom) throws -> String?
) rethrows {
    for index in 0..<count {
        var random = SeededRandom(seed: Seed.derive(seed, index))
        if let failure = try property(&random) {
            Issue.record(
                "\(name): case \(index) of \(count) failed (replay with HARDENING_SEED=\(seed)): \(failure)",
                sourceLocation: sourceLocation)
            return
        }
    }
}

/// Byte-for-byte equality of texts: `String`'s own `==` takes canonically equivalent texts ("é"
/// and "e\u{301}") for the same, which would hide a decoder that normalizes.
public func sameBytes(_ lhs: [String], _ rhs: [String]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
}
