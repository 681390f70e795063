import Locking
import StateDeck

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
