import FoundationEssentials
import HTTPClient
import StateDeck

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DockerSource {
    /// Throws `containerNotRunning` unless the container runs, `containerUnhealthy` when its
    /// healthcheck fails; `now` tells an exit of today (at 14:02) from an older one.
    func check(_ inspection: ContainerInspection, now: Date) throws(PanelError) {
        let state = inspection.state
        let exit = "exited with code \(state.exitCode ?? 0)\(state.outOfMemory == true ? " (out of memory)" : "")"
            + (ContainerInspection.instant(state.finishedAt).map { " \(moment($0, now: now))" } ?? "")
        let why: String? = switch state.status {
        case "running": nil
        case "exited" where state.error?.isEmpty == false: "\(container) could not start: \(state.error ?? "")."
        case "exited": "\(container) \(exit)."
        case "restarting": "\(container) is restarting: it \(exit), and has restarted \((inspection.restartCount ?? 0).counted("time"))."
        case "paused": "\(container) is paused."
        case "created": "\(container) was created but never started."
        case "removing": "\(container) is being removed."
        case "dead": "\(container) is dead: the engine could not stop or remove it cleanly."
        default: "\(container) is \(state.status)."
        }
        if let why {
            let suggestion = state.status == "paused" ? "Unpause it (docker unpause \(container))."
                : "Read why in its logs (docker logs \(container)), then start it (docker start \(container))."
            throw PanelError(.containerNotRunning, failureReason: why, recoverySuggestion: suggestion,
                             detail: "\(address): state \(state.status)")
        }
        guard let health = state.health, health.status == "unhealthy" else { return }
        let output = health.log?.last?.output?.trimmed() ?? ""
        let lastLine = output.split(whereSeparator: \.isNewline).last.map { String($0).trimmed() } ?? ""
        let streak = health.failingStreak.map { " \($0.counted("time")) in a row" } ?? ""
        throw PanelError(.containerUnhealthy,
                         failureReason: "\(container)'s healthcheck failed\(streak)" + (lastLine.isEmpty ? "." : ": \(lastLine.excerpt(limit: 300))"),
                         recoverySuggestion: "Read its health log (docker inspect --format '{{json .State.Health}}' \(container)).",
                         detail: "\(address): exit code \(health.log?.last?.exitCode.map(String.init) ?? "unknown")"
                             + (output.isEmpty ? "" : ", output: \(output.excerpt(limit: 1000))"))
    }

    /// "at 14:02" on the day of `now`, "on 5 January 2026, 14:02" before it.
    private func moment(_ instant: Date, now: Date) -> String {
        let day = { (date: Date) in CivilDate(second: Int(date.timeIntervalSince1970), offset: zone.offset(at: date)) }
        return day(instant) == day(now) ? "at \(zone.clockTime(instant))" : "on \(zone.dateAndTime(instant))"
    }

    /// The card for an answer other than 200: `containerNotFound` for 404, the engine's own
    /// words (`{"message": …}`) for the others.
    func failure(answering response: HTTPClientResponse) -> PanelError {
        let message = ContainerInspection.engineMessage(in: response.body)
        let detail = "\(address): \(response.status)" + (message.map { " \($0)" } ?? "")
        switch response.status {
        case 404:
            return PanelError(.containerNotFound, failureReason: "The engine at \(socket) has no container \(container).",
                              recoverySuggestion: "Check the name (docker ps --all lists them), or create the container.",
                              detail: detail)
        case 500...599:
            return PanelError(.serverError, failureReason: "The engine at \(socket) failed to answer: \(message ?? "status \(response.status)").",
                              detail: detail)
        default:
            return PanelError(.invalidResponse, failureReason: "The engine at \(socket) answered \(response.status): \(message ?? "no reason given").",
                              detail: detail)
        }
    }

    /// The catalogue's error for a request that got no answer.
    ///
    /// - Throws: `CancellationError` when the request was cancelled.
    func failure(for error: HTTPClientError) throws(CancellationError) -> PanelError {
        let detail = "\(address): \(error.message)"
        switch error.reason {
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            return .timedOut(after: timeout, detail: detail)
        case .noSocket:
            return PanelError(.unreachable, failureReason: "There is no socket at \(socket): the container engine is not running, or listens elsewhere.",
                              recoverySuggestion: "Start the engine (sudo systemctl start docker), or set the panel's socket to the engine's.",
                              detail: detail)
        case .refused:
            return PanelError(.unreachable, failureReason: "Nothing accepts connections at \(socket): the container engine is not running.",
                              recoverySuggestion: "Start the engine (sudo systemctl start docker).", detail: detail)
        case .permissionDenied:
            let user = Self.userName.map { "the user \($0)" } ?? "the user StateDeck runs as"
            return PanelError(.unauthorized, failureReason: "StateDeck may not open \(socket).",
                              recoverySuggestion: "Add \(user) to the docker group (sudo usermod -aG docker \(Self.userName ?? "USER")), then restart StateDeck, which keeps the groups it started with.",
                              detail: detail)
        case .connectionLost:
            return PanelError(.unreachable, failureReason: "The engine at \(socket) closed the connection before it answered.",
                              detail: detail)
        case .invalidAnswer, .bodyTooLarge, .headersTooLarge, .tooManyHeaders:
            return PanelError(.invalidResponse, failureReason: "What came back from \(socket) is not the engine's answer.",
                              detail: detail)
        default:
            return PanelError(.unknown, detail: detail)
        }
    }

    /// The name of the user this process runs as, for the command that lets it open the socket.
    private static var userName: String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }
}

extension ContainerInspection {
    /// The engine's reason in an error answer: `{"message": "No such container: web"}`.
    static func engineMessage(in body: [UInt8]) -> String? {
        struct Answer: Decodable {
            var message: String
        }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.message
    }
}
