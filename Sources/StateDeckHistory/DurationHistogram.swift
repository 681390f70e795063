#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Load durations counted in buckets about 19 % wide (four per doubling, from 1 ms to about
/// 18 minutes), so that tallies of minutes merge into hours and days and still give a 95th
/// percentile within one bucket's width, in a few bytes.
public struct DurationHistogram: Sendable, Equatable {
    /// Bucket `i` holds durations in `[2^((i-1)/4), 2^(i/4))` milliseconds; bucket 0 holds
    /// durations under 1 ms, the last one everything longer.
    static let bucketCount = 82

    /// A bucket with its count.
    struct Bin: Sendable, Equatable {
        var index: UInt8
        var count: Int
    }

    /// The buckets counted, in order: a minute's loads fall in a few, so a sorted list is smaller
    /// and quicker to merge than a table of every bucket.
    private(set) var bins: [Bin] = []

    public init() {}

    var isEmpty: Bool { bins.isEmpty }

    /// Durations counted.
    var count: Int { bins.reduce(0) { $0 + $1.count } }

    mutating func add(milliseconds: Int64) {
        add(Bin(index: UInt8(Self.bucket(of: milliseconds)), count: 1))
    }

    private mutating func add(_ bin: Bin) {
        if let position = bins.firstIndex(where: { $0.index >= bin.index }) {
            if bins[position].index == bin.index {
                bins[position].count += bin.count
            } else {
                bins.insert(bin, at: position)
            }
        } else {
            bins.append(bin)
        }
    }

    mutating func merge(_ other: DurationHistogram) {
        guard !bins.isEmpty else { return bins = other.bins }
        var merged: [Bin] = []
        merged.reserveCapacity(bins.count + other.bins.count)
        var (left, right) = (0, 0)
        while left < bins.count || right < other.bins.count {
            if right == other.bins.count || (left < bins.count && bins[left].index < other.bins[right].index) {
                merged.append(bins[left])
                left += 1
            } else if left == bins.count || other.bins[right].index < bins[left].index {
                merged.append(other.bins[right])
                right += 1
            } else {
                merged.append(Bin(index: bins[left].index, count: bins[left].count + other.bins[right].count))
                left += 1
                right += 1
            }
        }
        bins = merged
    }

    static func bucket(of milliseconds: Int64) -> Int {
        guard milliseconds >= 1 else { return 0 }
        return min(bucketCount - 1, Int((4 * log2(Double(milliseconds))).rounded(.down)) + 1)
    }

    /// The upper edge of bucket `index`, in milliseconds.
    static func upperEdge(of index: Int) -> Int64 {
        Int64(pow(2, Double(index) / 4).rounded(.up))
    }

    /// The smallest bucket edge at or above the `fraction` quantile (0.95 for p95), or nil when
    /// nothing was counted.
    func quantile(_ fraction: Double) -> Int64? {
        let total = count
        guard total > 0 else { return nil }
        let rank = Int((Double(total) * fraction).rounded(.up))
        var seen = 0
        for bin in bins {
            seen += bin.count
            if seen >= rank { return Self.upperEdge(of: Int(bin.index)) }
        }
        return nil
    }

    /// Stored as pairs of a bucket byte and its count as a LEB128 varint.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bins.count * 2)
        for bin in bins {
            bytes.append(bin.index)
            var count = UInt64(bin.count)
            repeat {
                let low = UInt8(count & 0x7F)
                count >>= 7
                bytes.append(count == 0 ? low : low | 0x80)
            } while count != 0
        }
        return bytes
    }

    /// The histogram `encoded` gave; nil for bytes it cannot have written.
    public init?(encoded bytes: [UInt8]) {
        var position = 0
        while position < bytes.count {
            let index = bytes[position]
            position += 1
            var count: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count, shift < 63 else { return nil }
                let byte = bytes[position]
                position += 1
                count |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            guard index < Self.bucketCount, bins.last.map({ $0.index < index }) ?? true else { return nil }
            bins.append(Bin(index: index, count: Int(count)))
        }
    }
}
