#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The simulator's only source of chance: SplitMix64 from a seed, so that a seed is a world.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
