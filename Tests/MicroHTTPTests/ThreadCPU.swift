import Foundation

/// CPU time of this process's threads, from /proc (Linux).
enum ThreadCPU {
    static func threads() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [])
    }

    /// User plus system time of `threads` so far (clock-tick resolution, usually 10 ms).
    static func time(of threads: Set<String>) -> Duration {
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        let ticks = threads.reduce(0) { total, thread in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8),
                  let afterName = stat.lastIndex(of: ")")
            else { return total }
            // Fields after the parenthesised name start at field 3; utime and stime are 14, 15.
            let fields = stat[stat.index(after: afterName)...].split(separator: " ")
            return total + (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
        return .milliseconds(ticks * 1000 / ticksPerSecond)
    }
}
