import Foundation
import TestSupport

/// Checks on the processes a test started.
enum ProcessGroup {
    /// How long a killed process may take to die: far less than the `sleep 30` (or longer) the
    /// tests run, which would otherwise end by itself.
    static let deathWait = Duration.seconds(10)

    /// Waits for every process of the group `id` to be dead (a zombie waiting for its parent
    /// counts as dead); false if one is still alive after `deathWait`.
    static func ends(_ id: pid_t) async -> Bool {
        await eventually(timeout: deathWait) { livingMembers(of: id).isEmpty }
    }

    /// Waits for each of the processes `ids` to be dead (a zombie counts as dead); false if one is
    /// still alive after `deathWait`.
    static func allEnd(_ ids: [pid_t]) async -> Bool {
        await eventually(timeout: deathWait) { !ids.contains(where: isAlive) }
    }

    /// True while process `id` exists and is not a zombie.
    static func isAlive(_ id: pid_t) -> Bool {
        guard let fields = statFields(of: String(id)) else { return false }
        return fields[0] != "Z" && fields[0] != "X"
    }

    /// The processes of group `id` that are not zombies, from `/proc`.
    static func livingMembers(of id: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let fields = statFields(of: entry),
                  fields[0] != "Z", pid_t(fields[2]) == id else { return nil }
            return pid
        }
    }

    /// The fields of `/proc/<entry>/stat` after "pid (command)": state, parent id, group id, ...;
    /// nil for an entry that is no process, or no longer one.
    private static func statFields(of entry: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 2 ? fields : nil
    }

    /// Reads the process id a command wrote to `file`, waiting for it up to `defaultWait`.
    static func id(writtenTo file: String) async throws -> pid_t {
        try await ids(writtenTo: file, count: 1)[0]
    }

    /// Reads the `count` process ids a command wrote to `file`, one a line, waiting for them up to
    /// `defaultWait`.
    static func ids(writtenTo file: String, count: Int) async throws -> [pid_t] {
        let ids = await eventuallyValue { () -> [pid_t]? in
            let lines = (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n") ?? []
            let ids = lines.compactMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
            return ids.count == count ? ids : nil
        }
        guard let ids else { throw CocoaError(.fileReadNoSuchFile) }
        return ids
    }
}
