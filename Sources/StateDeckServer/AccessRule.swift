import MicroHTTP

/// The role each request needs, in one table; the gate applies it once it knows the caller.
///
/// | method                 | path                                                    | role       | may (`GET /api/caller`) |
/// |------------------------|---------------------------------------------------------|------------|-------------------------|
/// | GET, HEAD              | `/api/state`, `/api/panels/{id}`, its `history`, `uptime` | viewer   |                         |
/// | GET, HEAD              | `/api/changes`                                          | viewer     |                         |
/// | GET, HEAD              | `/events`, `/metrics`, `/badge/{panel}.svg`             | viewer     |                         |
/// | GET, HEAD              | `/api/maintenance`, `/api/notify/log`, `/api/caller`    | viewer     |                         |
/// | GET, HEAD              | `/api/incidents…`, `/api/audit…`                        | viewer     |                         |
/// | POST                   | `/api/panels/{id}/retry`                                | operator   | `retry`                 |
/// | POST                   | `/api/panels/{id}/recover`                              | operator   | `recover`               |
/// | POST                   | `/api/panels/{id}/items/{itemId}/actions/{actionId}`    | operator   | `itemActions`           |
/// | POST, DELETE           | `/api/maintenance`, `/api/maintenance/{id}`             | operator   | `maintenance`           |
/// | POST, PUT, PATCH, DELETE | `/api/incidents…`                                     | operator   | `incidents`             |
/// | POST                   | `/api/notify/test`                                      | operator   | `notifyTest`            |
/// | GET, HEAD              | `/api/panels/{id}/ping` (its ping URL)                  | operator   | `pingURL`               |
/// | POST                   | `/api/debug/panels/{id}/state` (only with `--debug`)    | designer   | `debug`                 |
/// | any                    | `/ping/…`: never asked; a ping's key is its credential  |            |                         |
/// | any                    | public paths (`RequestGate.isPublic`: `/status…`, the badges of the panels the status page lists): no token | | |
/// | any other              | a page file, a path no route serves                     | viewer     |                         |
///
/// `…` is the path and anything under it. Every route of the router has a row (a test checks),
/// so a new route cannot slip in with whatever the last row gives.
struct AccessRule: Sendable {
    /// What `GET /api/caller` tells the page a caller may do.
    enum Permission: String, Sendable, CaseIterable {
        case retry, recover, itemActions, maintenance, incidents, notifyTest, pingURL, debug
    }

    private enum Path: Sendable {
        case route(RoutePattern)
        /// These segments and any beneath them.
        case under([String])
    }

    let methods: Set<HTTPMethod>
    private let path: Path
    let role: AccessRole
    /// The request as a refusal names it: "retrying a panel".
    let doing: String
    let permission: Permission?

    static let table: [AccessRule] = [
        viewing("/api/state"), viewing("/api/panels/{id}"), viewing("/api/panels/{id}/history"),
        viewing("/api/panels/{id}/uptime"), viewing("/events"), viewing("/metrics"), viewing("/badge/{panel}.svg"),
        viewing("/api/maintenance"), viewing("/api/notify/log"), viewing("/api/caller"), viewing("/api/changes"),
        AccessRule([.get], under: ["api", "incidents"], .viewer, "reading incidents"),
        AccessRule([.get], under: ["api", "audit"], .viewer, "reading the audit"),
        AccessRule([.post], "/api/panels/{id}/retry", .operator, "retrying a panel", .retry),
        AccessRule([.post], "/api/panels/{id}/recover", .operator, "choosing a recovery option", .recover),
        AccessRule([.post], "/api/panels/{id}/items/{itemId}/actions/{actionId}", .operator, "running an item action", .itemActions),
        AccessRule([.post], "/api/maintenance", .operator, "starting maintenance", .maintenance),
        AccessRule([.delete], "/api/maintenance/{id}", .operator, "ending maintenance", .maintenance),
        AccessRule([.post, .put, .patch, .delete], under: ["api", "incidents"], .operator, "writing incidents", .incidents),
        AccessRule([.post], "/api/notify/test", .operator, "sending a test notification", .notifyTest),
        AccessRule([.get], "/api/panels/{id}/ping", .operator, "reading a ping URL", .pingURL),
        AccessRule([.post], "/api/debug/panels/{id}/state", .designer, "forcing a debug state", .debug),
    ]

    /// The row for a request, HEAD read as GET; nil for a request no row names (a page file).
    static func rule(for method: HTTPMethod, _ pathSegments: [String]) -> AccessRule? {
        let method = method == .head ? .get : method
        return table.first { $0.methods.contains(method) && $0.matches(pathSegments) }
    }

    /// The row deciding `permission`, the one asking the most of the rows that share it.
    static func rule(for permission: Permission) -> AccessRule {
        table.filter { $0.permission == permission }.max { $0.role < $1.role }!
    }

    /// The refusal's message: "retrying a panel needs the operator role; bob is a viewer".
    func refusal(of caller: Caller) -> String {
        "\(doing) needs the \(role.rawValue) role; \(caller.name) is \(Self.article(caller.role)) \(caller.role.rawValue)"
    }

    /// "an" before operator, "a" before viewer and designer.
    static func article(_ role: AccessRole) -> String {
        role.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private func matches(_ pathSegments: [String]) -> Bool {
        switch path {
        case .route(let pattern): pattern.match(pathSegments) != nil
        case .under(let prefix): pathSegments.starts(with: prefix)
        }
    }

    private init(_ methods: Set<HTTPMethod>, _ pattern: String, _ role: AccessRole, _ doing: String, _ permission: Permission? = nil) {
        self.init(methods, path: .route(RoutePattern(pattern)), role, doing, permission)
    }

    private init(_ methods: Set<HTTPMethod>, under prefix: [String], _ role: AccessRole, _ doing: String, _ permission: Permission? = nil) {
        self.init(methods, path: .under(prefix), role, doing, permission)
    }

    private init(_ methods: Set<HTTPMethod>, path: Path, _ role: AccessRole, _ doing: String, _ permission: Permission?) {
        self.methods = methods
        self.path = path
        self.role = role
        self.doing = doing
        self.permission = permission
    }

    /// A GET (and HEAD) any caller may make.
    private static func viewing(_ pattern: String) -> AccessRule {
        AccessRule([.get], pattern, .viewer, "reading \(pattern)")
    }
}
