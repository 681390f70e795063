import Locking

/// Simulated chance and latency for one demo panel.
///
/// Each panel draws from a generator of its own, seeded from the deck's seed and the panel's id,
/// so `--seed N` replays the same story for every panel however their loads interleave.
struct Simulation: Sendable {
    private let generator: Locked<SplitMix64>

    init(seed: UInt64, panel: String) {
        var mixed = seed
        for byte in panel.utf8 {
            mixed = (mixed ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        generator = Locked(SplitMix64(state: mixed))
    }

    /// A number in `0..<1`.
    func unit() -> Double {
        generator.withLock { Double($0.next() >> 11) / Double(1 << 53) }
    }

    /// True with probability `probability`.
    func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// Sleeps for a simulated latency within `range`, in milliseconds.
    func latency(_ range: ClosedRange<Int>) async throws {
        let milliseconds = range.lowerBound + Int(unit() * Double(range.count))
        try await Task.sleep(for: .milliseconds(milliseconds))
    }
}

/// Steele, Lea and Flood's SplitMix64: tiny, fast, and the same numbers from a seed on every
/// machine; good enough for a demo's dice and for replayable test cases.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
