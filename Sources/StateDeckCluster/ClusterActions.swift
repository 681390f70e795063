import Locking
import Postgres
import StateDeckServer

/// Actions on their way to the leader: a server that does not run the deck writes the request
/// to `statedeck_actions` and waits; the leader claims it, runs it through its routes, writes the
/// answer and says so on `statedeck_answers`. Each server's feed hears both channels.
final class ClusterActions: Sendable {
    static let requests = "statedeck_actions"
    static let answers = "statedeck_answers"

    /// How long a forwarded action waits for the leader's answer; older requests are not claimed.
    private let timeout: Duration
    private let session: StoreSession
    private let waiting = Locked<[Int64: CheckedContinuation<ForwardedAction.Answer?, Never>]>([:])

    init(url: String, timeout: Duration) {
        session = StoreSession(url: url)
        self.timeout = timeout
    }

    /// Writes `action` for the leader and waits for its answer; nil after `timeout`.
    func forward(_ action: ForwardedAction) async -> ForwardedAction.Answer? {
        let sent = await blocking { session throws(PostgresError) in
            let id = try session.query(
                "INSERT INTO statedeck_actions (method, target, body, caller, role) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                [action.method, action.target, String(decoding: action.body, as: UTF8.self), action.caller.name,
                 action.caller.role.rawValue]).integer(0, 0)
            try session.query("SELECT pg_notify($1, '')", [Self.requests])
            return id
        }
        guard let id = sent ?? nil else { return nil }
        let timeout = timeout
        let expiry = Task { [self] in
            try? await Task.sleep(for: timeout)
            resume(id, with: nil)
        }
        defer { expiry.cancel() }
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0[id] = continuation }
            // The answer may have come before the waiter was in place.
            Task { [self] in await answer(of: id) }
        }
    }

    /// Hands the answers named in `payloads` (action ids) to those waiting here for them.
    func heard(answers payloads: [String]) async {
        for id in payloads.compactMap({ Int64($0) }) where waiting.withLock({ $0[id] != nil }) {
            await answer(of: id)
        }
    }

    /// An action a leader took on.
    private struct Claim: Sendable {
        var id: Int64
        var action: ForwardedAction
    }

    /// Claims every action no leader took yet and runs them on `member` at once, each writing its
    /// answer as it ends: a slow one (a test send to a target that hangs) holds back no other.
    func performPending(on member: ClusterMember) async {
        let window = "\(Int(timeout / .milliseconds(1))) milliseconds"
        let claims = await blocking { session throws(PostgresError) in
            let rows = try session.query("""
                UPDATE statedeck_actions SET claimed = true
                WHERE NOT claimed AND sent > now() - $1::interval RETURNING id, method, target, body, caller, role
                """, [window])
            return (0..<rows.count).map { row in
                Claim(id: rows.integer(row, 0) ?? 0,
                      action: ForwardedAction(method: rows[row, 1] ?? "", target: rows[row, 2] ?? "",
                                              body: Array((rows[row, 3] ?? "").utf8),
                                              caller: Self.caller(name: rows[row, 4], role: rows[row, 5])))
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for claim in claims ?? [] {
                group.addTask { [self] in
                    let answer = await member.server.perform(claim.action)
                    _ = await blocking { session throws(PostgresError) in
                        try session.query("UPDATE statedeck_actions SET status = $2, answer = $3 WHERE id = $1",
                                          [String(claim.id), String(answer.status), String(decoding: answer.body, as: UTF8.self)])
                        try session.query("SELECT pg_notify($1, $2)", [Self.answers, String(claim.id)])
                    }
                }
            }
        }
    }

    /// Who sent an action, as the server that let it in wrote it; an action written by a server
    /// from before actions were signed is signed ``Caller/unknown``.
    static func caller(name: String?, role: String?) -> Caller {
        guard let name, !name.isEmpty, let role = role.flatMap(AccessRole.init(rawValue:)) else {
            return .unknown
        }
        return Caller(name: name, role: role)
    }

    /// Removes actions answered or expired a minute ago.
    func trim() {
        _ = try? session.run { session throws(PostgresError) in
            try session.execute("DELETE FROM statedeck_actions WHERE sent < now() - interval '1 minute'")
        }
    }

    /// Reads the answer to `id`, if written, and resumes its waiter.
    private func answer(of id: Int64) async {
        let written = await blocking { session throws(PostgresError) -> ForwardedAction.Answer? in
            let rows = try session.query("SELECT status, answer FROM statedeck_actions WHERE id = $1 AND status IS NOT NULL",
                                         [String(id)])
            guard rows.count == 1, let status = rows.integer(0, 0) else { return nil }
            return ForwardedAction.Answer(status: Int(status), body: Array((rows[0, 1] ?? "").utf8))
        }
        if let answer = written ?? nil { resume(id, with: answer) }
    }

    private func resume(_ id: Int64, with answer: ForwardedAction.Answer?) {
        waiting.withLock { $0.removeValue(forKey: id) }?.resume(returning: answer)
    }

    /// `body` on the session, off the caller's thread; nil when it failed.
    private func blocking<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async -> T? {
        try? await session.blocking(body).get()
    }
}
