import FoundationEssentials
import StateDeck

/// One entry of a deck file's `maintenance:`: a window over panels and groups, with a reason.
///
/// | keys | the window |
/// | --- | --- |
/// | `from`, `to` | once: ISO 8601 times with their offset (`2026-12-01T02:00:00+01:00`, `…Z`), `to` after `from` |
/// | `schedule`, `duration`, `timezone` | at each time a 5-field cron line names, in the zone (the machine's by default), for the duration (1 minute to 7 days) |
///
/// `id` is optional: without one a window is `file-` and its place in the list (`file-1`), so it
/// names the same window across restarts. `panels` and `groups` name the file's own; at least one.
/// `reason` is within ``TextLimit/reason``, as a window started through the API.
public struct MaintenanceSpec: Sendable, Hashable {
    public enum Timing: Sendable, Hashable {
        case once(from: Date, until: Date)
        case recurring(schedule: CronSchedule, duration: Duration, zone: ZoneRules)
    }

    public var id: String
    public var reason: String
    /// The panels it covers, the groups' spelled out, in the file's order.
    public var panels: [String]
    public var timing: Timing

    /// The core's window.
    public var window: MaintenanceWindow {
        switch timing {
        case .once(let from, let until):
            return MaintenanceWindow(id: id, reason: reason, panels: panels, timing: .once(from: from, until: until))
        case .recurring(let schedule, let duration, let zone):
            return MaintenanceWindow(id: id, reason: reason, panels: panels,
                                     timing: .recurring(.init(schedule, duration: duration, in: zone)))
        }
    }
}

// MARK: - Reading

extension MaintenanceSpec {
    static let keys = ["id", "reason", "panels", "groups", "from", "to", "schedule", "duration", "timezone"]
    /// The longest a recurring window's stretch lasts.
    static let longest: Duration = .seconds(7 * 86_400)

    /// The windows of a `maintenance` list over the file's `panels`, each id once.
    static func list(reading node: ConfigNode, panels: [PanelSpec]) -> [MaintenanceSpec]? {
        guard let items = node.list() else { return nil }
        let windows = items.enumerated().map { MaintenanceSpec(reading: $1, position: $0 + 1, panels: panels) }
        ConfigNode.reportReusedIds(zip(items, windows.map { $0?.id }))
        return windows.compactMap(\.self)
    }

    /// Reads entry `position` (from 1) of the list.
    init?(reading node: ConfigNode, position: Int, panels: [PanelSpec]) {
        guard let map = node.mapping(allowing: Self.keys) else { return nil }
        let id = map["id"].map { $0.identifier() } ?? "file-\(position)"
        let reason = map.required("reason")?.text(within: .reason)
        let covered = Self.covered(map, panels: panels)
        let timing = Self.timing(map)
        guard let id, let reason, let covered, let timing else { return nil }
        self.init(id: id, reason: reason, panels: covered, timing: timing)
    }

    /// The panels `panels` and `groups` name, in the file's order; nil (and a problem) when one is
    /// not the file's or neither is given.
    private static func covered(_ map: ConfigMapping, panels: [PanelSpec]) -> [String]? {
        guard map["panels"] != nil || map["groups"] != nil else {
            map.node.problem("needs panels or groups: the ids it covers")
            return nil
        }
        let ids = map["panels"].map { list in known(list, among: panels.map(\.id), what: "panel", in: "panels") } ?? []
        let groupIds = Array(Set(panels.compactMap(\.group?.id)))
        let groups = map["groups"].map { list in known(list, among: groupIds, what: "group", in: "groups") } ?? []
        guard let ids, let groups else { return nil }
        let covered = panels.filter { ids.contains($0.id) || $0.group.map { groups.contains($0.id) } == true }.map(\.id)
        if covered.isEmpty { map.node.problem("covers no panel: give panels or groups") }
        return covered.isEmpty ? nil : covered
    }

    /// The ids of `list`, each one of `known`; nil when one is not.
    private static func known(_ list: ConfigNode, among known: [String], what: String, in key: String) -> [String]? {
        guard let items = list.list() else { return nil }
        let ids = items.map { item -> String? in
            guard let id = item.identifier() else { return nil }
            guard known.contains(id) else {
                item.problem("no \(what) \(id) in the file's \(key)\(id.hint(among: known))")
                return nil
            }
            return id
        }
        return ids.contains(nil) ? nil : ids.compactMap(\.self)
    }

    /// `from` and `to`, or `schedule`, `duration` and `timezone`.
    private static func timing(_ map: ConfigMapping) -> Timing? {
        let once = map.present(["from", "to"])
        let recurring = map.present(["schedule", "duration", "timezone"])
        switch (once.isEmpty, recurring.isEmpty) {
        case (false, false):
            map[recurring[0]]?.problem("a window is either from and to, or schedule and duration, not both")
            return nil
        case (true, true):
            map.node.problem("needs from and to (once), or schedule and duration (again and again)")
            return nil
        case (false, true):
            let from = map.required("from")?.instant()
            let until = map.required("to")?.instant()
            guard let from, let until else { return nil }
            guard until > from else {
                map["to"]?.problem("must be after from")
                return nil
            }
            return .once(from: from, until: until)
        case (true, false):
            break
        }
        let schedule = map.required("schedule")?.cronSchedule()
        let duration = map.required("duration")?.duration(atLeast: .seconds(60), atMost: longest)
        let zone = map["timezone"].map { $0.zoneRules() } ?? map.node.reader.localZone
        guard let schedule, let duration, let zone else { return nil }
        return .recurring(schedule: schedule, duration: duration, zone: zone)
    }
}

extension ConfigNode {
    /// An ISO 8601 time with its offset (``ISO8601Time``): `2026-12-01T02:00:00+01:00`,
    /// `2026-12-01T01:00:00Z`; a field out of its range is named.
    func instant() -> Date? {
        guard let text = text() else { return nil }
        do throws(ISO8601Time.Problem) {
            return try ISO8601Time.parse(text)
        } catch .notATime {
            problem("\"\(text)\" is not a time; write it as ISO 8601 with its offset, like 2026-12-01T02:00:00+01:00 or 2026-12-01T01:00:00Z")
        } catch {
            problem("\"\(text)\" is not a time that exists: \(error)")
        }
        return nil
    }
}
