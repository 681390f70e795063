import FoundationEssentials
import StateDeck

/// What a docker panel reads of the engine's answer to `GET /containers/{name}/json` (Docker's
/// `ContainerInspectResponse`, which Podman's compatible service answers alike).
struct ContainerInspection: Decodable {
    struct State: Decodable {
        /// `created`, `running`, `paused`, `restarting`, `removing`, `exited` or `dead`.
        var status: String
        var exitCode: Int?
        /// Killed for running out of memory.
        var outOfMemory: Bool?
        /// Why the engine could not start it, when it could not.
        var error: String?
        var startedAt: String?
        var finishedAt: String?
        /// Only for a container with a healthcheck.
        var health: Health?

        enum CodingKeys: String, CodingKey {
            case status = "Status", exitCode = "ExitCode", outOfMemory = "OOMKilled", error = "Error"
            case startedAt = "StartedAt", finishedAt = "FinishedAt", health = "Health"
        }
    }

    struct Health: Decodable {
        /// `starting`, `healthy` or `unhealthy` (`none` without a healthcheck).
        var status: String
        /// The failed probes in a row.
        var failingStreak: Int?
        /// The last probes, oldest first.
        var log: [Probe]?

        enum CodingKeys: String, CodingKey {
            case status = "Status", failingStreak = "FailingStreak", log = "Log"
        }
    }

    /// One run of the healthcheck.
    struct Probe: Decodable {
        var exitCode: Int?
        var output: String?

        enum CodingKeys: String, CodingKey {
            case exitCode = "ExitCode", output = "Output"
        }
    }

    struct Config: Decodable {
        var image: String?

        enum CodingKeys: String, CodingKey {
            case image = "Image"
        }
    }

    var state: State
    var restartCount: Int?
    var config: Config?

    enum CodingKeys: String, CodingKey {
        case state = "State", restartCount = "RestartCount", config = "Config"
    }

    /// The answer's body as an inspection; nil when it is not one.
    init?(parsing body: [UInt8]) {
        guard let inspection = try? JSONDecoder().decode(Self.self, from: Data(body)) else { return nil }
        self = inspection
    }

    /// `StartedAt` or `FinishedAt` as an instant; nil for the engine's "never" (year 1) or no time.
    static func instant(_ written: String?) -> Date? {
        guard let written, let date = try? ISO8601Time.parse(written), date.timeIntervalSince1970 > 0 else { return nil }
        return date
    }
}
