import MicroHTTP

/// `GET /api/caller`: who the page's user is to this server and what their role lets them do,
/// so the page hides or disables the rest and says why. Each permission is ``AccessRule``'s
/// answer for the role; forcing debug states also needs a `--debug` server.
struct CallerRoute: Sendable {
    let gate: RequestGate
    let debugEnabled: Bool

    func register(on router: inout Router) {
        router.on(.get, "/api/caller") { request, _ in
            guard let caller = gate.caller(of: request) else {
                return .response(.apiError(.forbidden, code: "forbidden", message: "this request brings no listed token"))
            }
            return .response(.api(.ok, document(for: caller)))
        }
    }

    /// `{"name":…,"role":…,"may":{"retry":true,…},"why":{…}}`: the permissions in
    /// ``AccessRule/Permission``'s order, and for each one refused the sentence the page shows.
    func document(for caller: Caller) -> String {
        let refusals = AccessRule.Permission.allCases.map { ($0, refusal(of: $0, to: caller)) }
        let may = refusals.map { JSONString.quoted($0.0.rawValue) + ":" + String($0.1 == nil) }
        let why = refusals.compactMap { permission, reason in
            reason.map { JSONString.quoted(permission.rawValue) + ":" + JSONString.quoted($0) }
        }
        return #"{"name":"# + JSONString.quoted(caller.name) + #","role":"# + JSONString.quoted(caller.role.rawValue)
            + #","may":{"# + may.joined(separator: ",") + #"},"why":{"# + why.joined(separator: ",") + "}}"
    }

    /// Why `caller` may not have `permission`, as a button's title says it; nil when they may.
    private func refusal(of permission: AccessRule.Permission, to caller: Caller) -> String? {
        let needed = AccessRule.rule(for: permission).role
        if caller.role < needed {
            return "Needs the \(needed.rawValue) role; you are \(AccessRule.article(caller.role)) \(caller.role.rawValue)"
        }
        return permission == .debug && !debugEnabled ? "Debug states are off: start statedeck with --debug" : nil
    }
}
