import StateDeck

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The simulator's only source of chance: SplitMix64 from a seed, so that a seed is a world.
struct SeededRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(state: seed)
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }

    /// Between `range`'s bounds, spread over their logarithm: as many minutes as hours as days.
    mutating func spread(_ range: ClosedRange<Double>) -> Double {
        exp(Double.random(in: log(range.lowerBound)...log(range.upperBound), using: &self))
    }
}
