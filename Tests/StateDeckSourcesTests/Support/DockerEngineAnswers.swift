import TestSupport

/// Answers of the Docker Engine API to `GET /containers/{name}/json` as the engine writes them
/// (Docker's API reference, `ContainerInspectResponse`, less some of what a panel does not read):
/// a container running, running healthy, running unhealthy with its health log, exited with 137,
/// restarting, paused; and the engine's 404. No engine runs where the tests do: a `TestHTTPServer`
/// serves these on a unix socket of the test's own.
enum DockerEngineAnswers {
    static let running = inspection(name: "web", image: "nginx:1.27", restarts: 0, state: state(
        "running", pid: 4242, startedAt: "2026-01-05T14:02:11.072697474Z"))

    static let healthy = inspection(name: "api", image: "ghcr.io/example/api:2.4.1", restarts: 1, state: state(
        "running", pid: 5151, startedAt: "2026-01-05T09:30:00.5Z", finishedAt: "2026-01-05T09:29:58.981726Z", health: """
        "Health": {
          "Status": "healthy", "FailingStreak": 0,
          "Log": [
            { "Start": "2026-01-05T14:10:05.6385933Z", "End": "2026-01-05T14:10:05.8078452Z", "ExitCode": 0, "Output": "ok\\n" }
          ]
        }
        """))

    static let unhealthy = inspection(name: "api", image: "ghcr.io/example/api:2.4.1", restarts: 0, state: state(
        "running", pid: 5151, startedAt: "2026-01-05T09:30:00.5Z", health: """
        "Health": {
          "Status": "unhealthy", "FailingStreak": 3,
          "Log": [
            { "Start": "2026-01-05T14:09:35.1Z", "End": "2026-01-05T14:09:35.2Z", "ExitCode": 0, "Output": "ok\\n" },
            { "Start": "2026-01-05T14:10:05.1Z", "End": "2026-01-05T14:10:05.3Z", "ExitCode": 1,
              "Output": "  % Total    % Received\\ncurl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server\\n" }
          ]
        }
        """))

    /// Exited with 137 (killed) at 14:02 UTC on 5 January 2026.
    static let exited = inspection(name: "worker", image: "example/worker:latest", restarts: 0, state: state(
        "exited", exitCode: 137, startedAt: "2026-01-05T09:30:00.5Z", finishedAt: "2026-01-05T14:02:33.123456789Z"))

    static let restarting = inspection(name: "worker", image: "example/worker:latest", restarts: 5, state: state(
        "restarting", exitCode: 1, startedAt: "2026-01-05T14:01:50.2Z", finishedAt: "2026-01-05T14:01:52.75Z"))

    static let paused = inspection(name: "web", image: "nginx:1.27", restarts: 0, state: state(
        "paused", pid: 4242, startedAt: "2026-01-05T14:02:11.072697474Z"))

    static let noSuchContainer = TestHTTPServer.Response(status: 404, headers: ["Content-Type": "application/json"],
                                                         body: #"{"message":"No such container: nope"}"#)

    /// A `State` as the engine writes it for `status`; `finishedAt` is the engine's "never" unless given.
    static func state(_ status: String, pid: Int = 0, exitCode: Int = 0, startedAt: String,
                      finishedAt: String = "0001-01-01T00:00:00Z", health: String? = nil) -> String {
        let running = ["running", "paused", "restarting"].contains(status)
        return """
            "Status": "\(status)", "Running": \(running), "Paused": \(status == "paused"), "Restarting": \(status == "restarting"),
            "OOMKilled": false, "Dead": false, "Pid": \(pid), "ExitCode": \(exitCode), "Error": "",
            "StartedAt": "\(startedAt)", "FinishedAt": "\(finishedAt)"
            """ + (health.map { ",\n\($0)" } ?? "")
    }

    /// The engine's answer about `name`, its `State` written by `state`.
    static func inspection(name: String, image: String, restarts: Int, state: String) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json", "Api-Version": "1.47"], body: """
            {
              "Id": "ba033ac4401106a3b513bc9d639eee123ad78ca3616b921167cd74b20e25ed39",
              "Created": "2026-01-02T15:47:31.485331387Z",
              "Path": "/docker-entrypoint.sh",
              "Args": ["nginx", "-g", "daemon off;"],
              "State": { \(state) },
              "Image": "sha256:04c5d3b7b0656168630d3ba35d8889bd0e9caafcaeb3004d2bfbc47e7c5d35d2",
              "ResolvConfPath": "/var/lib/docker/containers/ba033ac44011/resolv.conf",
              "Name": "/\(name)",
              "RestartCount": \(restarts),
              "Driver": "overlay2",
              "Platform": "linux",
              "HostConfig": { "NetworkMode": "bridge", "RestartPolicy": { "Name": "unless-stopped", "MaximumRetryCount": 0 } },
              "Mounts": [],
              "Config": {
                "Hostname": "ba033ac44011",
                "Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
                "Cmd": ["nginx", "-g", "daemon off;"],
                "Image": "\(image)",
                "Labels": { "com.docker.compose.project": "stack", "com.docker.compose.service": "\(name)" },
                "StopSignal": "SIGQUIT"
              },
              "NetworkSettings": { "Networks": { "bridge": { "IPAddress": "172.17.0.2", "Gateway": "172.17.0.1" } } }
            }
            """)
    }
}
