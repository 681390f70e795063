import Foundation
import Glibc

/// What `/proc` says about processes.
enum ProcessTable {
    /// True while `pid` exists and is not a zombie.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
        return state != "Z" && state != "X"
    }

    /// Live processes whose parent is `parent` and whose name (`comm`) is `name`, or any name.
    static func children(of parent: Int32, named name: String? = nil) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return false }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", Int32(fields[1]) == parent else { return false }
            return name.map { comm == $0 } ?? true
        }
    }

    /// Every live descendant of `root`.
    static func descendants(of root: Int32) -> [Int32] {
        var found: [Int32] = []
        var frontier = [root]
        while let next = frontier.popLast() {
            let children = self.children(of: next)
            found += children
            frontier += children
        }
        return found
    }

    /// This process's resident memory in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ")[1]) ?? 0) * 1024
    }

    /// The pid written in `path`, once it is there.
    static func pid(in path: String) -> Int32? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// Which sanitizer this test process runs under, if any.
enum Sanitizer {
    /// AddressSanitizer keeps freed memory in quarantine: resident memory says nothing there.
    static let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    static let thread = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
}
