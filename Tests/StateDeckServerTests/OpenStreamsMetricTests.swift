import TestSupport
import Testing

extension Live {
    /// `GET /metrics` counts the event streams open.
    @Suite struct OpenStreamsMetricTests {
        @Test func openStreamsAreCounted() async throws {
            try await LiveServer.run { server in
                let streams = try await server.events(count: 2)
                defer { streams.forEach { $0.close() } }
                #expect(try await Routed.MetricsRouteTests.metrics(server)["statedeck_streams_open"] == 2)
            }
        }
    }
}
