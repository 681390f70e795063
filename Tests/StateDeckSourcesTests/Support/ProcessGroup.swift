import Foundation
import TestSupport

/// Checks on the processes a test started.
enum ProcessGroup {
    /// Waits for every process of the group `id` to be dead (a zombie waiting for its parent
    /// counts as dead); false if one is still alive after 10 s, well before the `sleep 30` the
    /// tests run would end by itself.
    static func ends(_ id: pid_t) async -> Bool {
        await eventually(timeout: .seconds(10)) { livingMembers(of: id).isEmpty }
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

    /// Reads the process id a command wrote to `file`, waiting for it up to `defaultWait`.
    static func id(writtenTo file: String) async throws -> pid_t {
        let id = await eventuallyValue {
            (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard let id else { throw CocoaError(.fileReadNoSuchFile) }
        return id
    }
}
