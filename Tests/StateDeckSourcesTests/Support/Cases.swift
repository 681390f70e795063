@testable import StateDeckSources

/// Each case's value, or nil for another case: for `try #require(...)`, which fails the test on
/// the wrong case instead of letting it pass unchecked.
extension SourceSpec {
    var http: HTTPSource? { if case .http(let source) = self { source } else { nil } }
    var tcp: TCPSource? { if case .tcp(let source) = self { source } else { nil } }
    var dns: DNSSource? { if case .dns(let source) = self { source } else { nil } }
    var tls: TLSSource? { if case .tls(let source) = self { source } else { nil } }
    var ping: PingSource? { if case .ping(let source) = self { source } else { nil } }
    var domain: DomainSource? { if case .domain(let source) = self { source } else { nil } }
    var docker: DockerSource? { if case .docker(let source) = self { source } else { nil } }
    var smtp: SMTPSource? { if case .smtp(let source) = self { source } else { nil } }
    var websocket: WebSocketSource? { if case .websocket(let source) = self { source } else { nil } }
    var grpc: GRPCSource? { if case .grpc(let source) = self { source } else { nil } }
    var postgres: PostgresSource? { if case .postgres(let source) = self { source } else { nil } }
    var mysql: MySQLSource? { if case .mysql(let source) = self { source } else { nil } }
    var redis: RedisSource? { if case .redis(let source) = self { source } else { nil } }
    var command: CommandSource? { if case .command(let source) = self { source } else { nil } }
    var file: FileSource? { if case .file(let source) = self { source } else { nil } }
    var heartbeat: HeartbeatSource? { if case .heartbeat(let source) = self { source } else { nil } }
}

extension Result {
    var failure: Failure? { if case .failure(let failure) = self { failure } else { nil } }
}
