@testable import MicroHTTP
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite("Idle stream pages")
struct IdlePagesTests {
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private static let marker: UInt8 = 0xAB

    /// Four pages and 200 bytes, starting 100 bytes into a page: three whole pages,
    /// at offsets `released`.
    private static func withBuffer(_ body: (UnsafeMutableRawBufferPointer) -> Void) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 6 * pageSize, alignment: pageSize)
        defer { memory.deallocate() }
        body(UnsafeMutableRawBufferPointer(start: memory + 100, count: 4 * pageSize + 200))
    }

    private static let released = (pageSize - 100)..<(4 * pageSize - 100)

    /// Offsets into the buffer of the bytes that read as zero.
    private static func zeroed(_ buffer: UnsafeMutableRawBufferPointer) -> Range<Int>? {
        guard let first = buffer.firstIndex(of: 0), let last = buffer.lastIndex(of: 0) else { return nil }
        return first..<(last + 1)
    }

    @Test("The first wait gives back the whole pages after the buffer's first page, and only those")
    func firstWaitReleasesWholePages() {
        Self.withBuffer { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: Self.marker)
            var pages = IdlePages(interval: 0)
            pages.release(buffer)
            #expect(Self.zeroed(buffer) == Self.released)
            #expect(buffer[..<Self.released.lowerBound].allSatisfy { $0 == Self.marker })
            #expect(buffer[Self.released.upperBound...].allSatisfy { $0 == Self.marker })
        }
    }

    /// A buffer whose pages were given back once, then filled with `marker` again.
    private static func afterFirstRelease(interval: Int, _ body: (inout IdlePages, UnsafeMutableRawBufferPointer) -> Void) {
        withBuffer { buffer in
            var pages = IdlePages(interval: interval)
            pages.release(buffer)
            buffer.initializeMemory(as: UInt8.self, repeating: marker)
            body(&pages, buffer)
        }
    }

    @Test("A write that stays in the first page releases nothing; one that reaches further does")
    func onlyWritesBeyondTheFirstPageRelease() {
        Self.afterFirstRelease(interval: 0) { pages, buffer in
            pages.wrote(Self.pageSize - 100, into: buffer)
            pages.release(buffer)
            #expect(Self.zeroed(buffer) == nil)
            pages.wrote(Self.pageSize, into: buffer)
            pages.release(buffer)
            #expect(Self.zeroed(buffer) == Self.released)
        }
    }

    @Test("Pages are given back at most once per interval")
    func releasesAreSpacedByTheInterval() {
        Self.afterFirstRelease(interval: 3600) { pages, buffer in
            pages.wrote(buffer.count, into: buffer)
            pages.release(buffer)
            #expect(Self.zeroed(buffer) == nil)
        }
    }
}
