import FoundationEssentials
import HTTPClient
import StateDeck

/// A container of a Docker engine, or of Podman's Docker-compatible service, asked over the
/// engine's unix socket (`GET /containers/{name}/json`): whether it runs, its health, its
/// restarts and its image.
///
/// The path names no API version: Docker answers an unversioned path at its own newest version,
/// and so does Podman, while a pinned one ages out (Docker 29 refuses anything older than 1.44).
/// The fields read have kept their shape since Docker 1.12.
///
/// libcurl speaks HTTP over the socket on the http engine's thread (`HTTPClient.send` with
/// `unixSocketPath`): a docker panel costs no thread of its own.
public struct DockerSource: Sendable, Hashable {
    /// The container's name or id.
    public var container: String
    /// The engine's socket.
    public var socket: String
    /// Each request's limit.
    public var timeout: Duration
    /// The zone of the times shown (when it started, when it exited): the machine's own from a deck file.
    public var zone: ZoneRules

    /// Docker's socket on Linux, where a deck file's panel asks unless it names another.
    public static let defaultSocket = "/var/run/docker.sock"

    public init(container: String, socket: String = Self.defaultSocket, timeout: Duration = .seconds(10),
                zone: ZoneRules = .utc) {
        self.container = container
        self.socket = socket
        self.timeout = timeout
        self.zone = zone
    }

    /// One request to the engine; throws a `PanelError`, or `CancellationError` when the task is cancelled.
    public func load() async throws -> Info {
        var request = HTTPClientRequest(url: "http://localhost/containers/\(container)/json", timeout: timeout)
        request.unixSocketPath = socket
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.send(request, waiting: LoadProgress.waitingForTurn)
        } catch {
            throw try failure(for: error)
        }
        guard response.status == 200 else { throw failure(answering: response) }
        guard let inspection = ContainerInspection(parsing: response.body) else {
            throw PanelError(.invalidResponse, failureReason: "The engine's answer about \(container) is not a container's inspection.",
                             detail: "\(address): \(String(decoding: response.body, as: UTF8.self).excerpt(limit: 200))")
        }
        try check(inspection, now: Date())
        return info(inspection)
    }

    /// "Running, healthy"; State, Health (with a healthcheck), Restarts, Image and Started, to the
    /// minute. Nothing that changes while the container runs on as it was: each check that finds
    /// it so is no change to record.
    func info(_ inspection: ContainerInspection) -> Info {
        let state = inspection.state
        let health = state.health.map(\.status).flatMap { $0 == "none" ? nil : $0 }
        var fields = [Info.Field("State", state.status)]
        if let health { fields.append(Info.Field("Health", health)) }
        fields.append(Info.Field("Restarts", "\(inspection.restartCount ?? 0)"))
        if let image = inspection.config?.image { fields.append(Info.Field("Image", image)) }
        if let started = ContainerInspection.instant(state.startedAt) {
            fields.append(Info.Field("Started", zone.dateAndTime(started)))
        }
        // "Running, health starting" while the first checks run, as `docker ps` says "(health: starting)".
        let summary = [state.status.capitalizedFirst] + [health.map { $0 == "starting" ? "health starting" : $0 }].compactMap(\.self)
        return Info(summary: summary.joined(separator: ", "), fields: fields)
    }

    /// Where the request went, for a card's detail: "GET /containers/web/json at /var/run/docker.sock".
    var address: String { "GET /containers/\(container)/json at \(socket)" }
}

extension String {
    /// "Running" for "running".
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
