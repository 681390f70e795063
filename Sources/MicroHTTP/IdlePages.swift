#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pages of libmicrohttpd's write buffer that a stream waiting for its next event keeps
/// resident for nothing, and their return to the kernel.
///
/// The content reader is lent the free part of the connection's memory pool to write into;
/// nothing is kept there between calls. Before the first read libmicrohttpd has zeroed most of
/// it (its request buffer, shrunk), and the catch-up was copied through it: resident pages that
/// made up most of an idle stream's memory (17.1 KiB per stream; 7.2 once given back,
/// docs/PERFORMANCE-FINDINGS.md, finding c). `MADV_DONTNEED` drops them; touched again, they come back as zeros.
///
/// Given back as the stream first waits, then again at a wait after a write reached them, at
/// most once per `interval`: each call is a system call and a flush of the other cores' page
/// tables, and the next write faults its pages back in. So a stream that keeps receiving
/// events pays for it once per interval, and an idle one is back to its least memory by the
/// first or second ping after its last event. The page the buffer starts in stays (it may hold
/// data of libmicrohttpd's before the buffer), and pings usually fit in it.
struct IdlePages {
    /// Seconds between two returns of one stream's pages, at least.
    let interval: Int

    /// Releasable pages were written since they were last given back (at first: by
    /// libmicrohttpd itself).
    private var touched = true
    /// When they were last given back, in seconds of `CLOCK_MONOTONIC_COARSE`; nil never.
    private var releasedAt: Int?

    init(interval: Int = 10) {
        self.interval = interval
    }

    /// Notes that the reader wrote `count` bytes at the start of `buffer`.
    mutating func wrote(_ count: Int, into buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        if Int(bitPattern: base) + count > Self.releasable(in: buffer).lowerBound {
            touched = true
        }
    }

    /// The stream is about to wait: gives the releasable pages of `buffer` back if they were
    /// written since the last time, and that was at least `interval` ago.
    mutating func release(_ buffer: UnsafeMutableRawBufferPointer) {
        guard touched else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        if let releasedAt, Int(now.tv_sec) - releasedAt < interval { return }
        touched = false
        releasedAt = Int(now.tv_sec)
        let pages = Self.releasable(in: buffer)
        guard !pages.isEmpty else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: pages.lowerBound), pages.count, MADV_DONTNEED)
    }

    /// The addresses of the whole pages of `buffer` after the page it starts in.
    private static func releasable(in buffer: UnsafeMutableRawBufferPointer) -> Range<Int> {
        let base = Int(bitPattern: buffer.baseAddress)
        let start = (base / pageSize + 1) * pageSize
        let end = (base + buffer.count) / pageSize * pageSize
        return start..<max(start, end)
    }
}

private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
