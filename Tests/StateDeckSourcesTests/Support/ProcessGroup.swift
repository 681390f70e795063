import Foundation

/// Checks on the processes a test started.
enum ProcessGroup {
    /// Waits up to a second for every process of the group `id` to be dead (a zombie waiting for
    /// its parent counts as dead); false if one is still alive then.
    static func ends(_ id: pid_t) async throws -> Bool {
        for _ in 0..<100 {
            if livingMembers(of: id).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The processes of group `id` that are not zombies, from `/proc`.
    static func livingMembers(of id: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            // After "pid (command)": state, parent id, group id, ...
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == id else { return nil }
            return pid
        }
    }

    /// Reads the process id a command wrote to `file`, waiting up to two seconds for it.
    static func id(writtenTo file: String) async throws -> pid_t {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
               let id = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return id
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CocoaError(.fileReadNoSuchFile)
    }
}
