import StateDeck
import StateDeckSources
import StateDeckServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DeckServer {
    /// Where it serves, its open event streams, its resident memory and how long it has run.
    public func health(upFor uptime: Duration) -> Info {
        var fields = [Info.Field("Open streams", "\(liveStreamCount)")]
        if let bytes = Self.residentBytes() {
            let tenths = (bytes * 10) >> 20
            fields.append(Info.Field("Memory", "\(tenths / 10).\(tenths % 10) MiB resident"))
        }
        fields.append(Info.Field("Up for", uptime.shortText))
        return Info(summary: "Serving at \(configuration.url(port: port))", fields: fields)
    }

    /// The process's resident memory: the second number of `/proc/self/statm`, in pages.
    private static func residentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let numbers = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard numbers.count > 1, let pages = Int(numbers[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
