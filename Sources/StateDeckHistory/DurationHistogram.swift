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
    private(set) var counts: [Int: Int] = [:]

    public init() {}

    var isEmpty: Bool { counts.isEmpty }

    /// Durations counted.
    var count: Int { counts.values.reduce(0, +) }

    mutating func add(milliseconds: Int64) {
        counts[Self.bucket(of: milliseconds), default: 0] += 1
    }

    mutating func merge(_ other: DurationHistogram) {
        counts.merge(other.counts, uniquingKeysWith: +)
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
        for index in counts.keys.sorted() {
            seen += counts[index]!
            if seen >= rank { return Self.upperEdge(of: index) }
        }
        return nil
    }

    /// Stored as pairs of a bucket byte and its count as a LEB128 varint.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        for index in counts.keys.sorted() {
            bytes.append(UInt8(index))
            var count = UInt64(counts[index]!)
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
            let index = Int(bytes[position])
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
            guard index < Self.bucketCount else { return nil }
            counts[index, default: 0] += Int(count)
        }
    }
}
