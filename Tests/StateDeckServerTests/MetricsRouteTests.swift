import Foundation
import StateDeck
import TestSupport
import Testing

extension Routed {
    /// `GET /metrics`: the deck's panels and loads in Prometheus' text format, asked of the
    /// responder (OpenStreamsMetricTests counts streams).
    @Suite struct MetricsRouteTests {
        /// The samples of an exposition, by name and labels as written (`name{a="b"}`).
        struct Samples {
            let values: [String: Double]

            init(_ text: String) {
                var values: [String: Double] = [:]
                for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                    guard let space = line.lastIndex(of: " ") else { continue }
                    values[String(line[..<space])] = Double(line[line.index(after: space)...])
                }
                self.values = values
            }

            /// The sample `name` with `labels` in the order the registry writes them.
            subscript(_ name: String, _ labels: KeyValuePairs<String, String> = [:]) -> Double? {
                let written = labels.map { #"\#($0.key)="\#($0.value)""# }.joined(separator: ",")
                return values[labels.isEmpty ? name : "\(name){\(written)}"]
            }

            static func panel(_ id: String) -> KeyValuePairs<String, String> {
                ["panel": id, "group": "", "source": "code"]
            }
        }

        static let code: KeyValuePairs<String, String> = ["group": "", "source": "code"]

        static func metrics(_ server: some TestDeckServer) async throws -> Samples {
            let response = try await server.get("/metrics")
            try #require(response.status == 200)
            return Samples(response.text)
        }

        /// The metrics once `holds` holds of them.
        static func metrics(_ server: some TestDeckServer, once holds: @escaping (Samples) -> Bool) async throws -> Samples {
            let samples = try await eventuallyValue {
                let samples = try await metrics(server)
                return holds(samples) ? samples : nil
            }
            return try #require(samples)
        }

        @Test func everyPanelIsUpAndTheAnswerIsPrometheusText() async throws {
            try await RoutedServer.run { server in
                let response = try await server.get("/metrics")
                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
                #expect(response.header("Cache-Control") == "no-store")
                #expect(response.text.contains("# TYPE statedeck_panel_up gauge"))
                #expect(response.text.contains("# TYPE statedeck_load_duration_seconds histogram"))
                let samples = Samples(response.text)
                for id in TestDeck.panelIds {
                    #expect(samples["statedeck_panel_up", Samples.panel(id)] == 1, "\(id)")
                    #expect(samples["statedeck_panel_loading", Samples.panel(id)] == 0, "\(id)")
                }
                #expect(samples["statedeck_load_duration_seconds_count", Self.code] == 3)
            }
        }

        @Test func aFailureAndARecoveryAreCountedOnceEach() async throws {
            try await RoutedServer.run { server in
                server.scripts.api.then(.failure(PanelError(.timeout)), .success(Info(summary: "API OK")))
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                let afterFailure = try await Self.metrics(server) { $0["statedeck_panel_up", Samples.panel("api")] == 0 }
                #expect(afterFailure["statedeck_transitions_total", ["group": "", "source": "code", "to": "down"]] == 1)
                #expect(afterFailure["statedeck_load_failures_total", ["group": "", "source": "code", "kind": "timeout"]] == 1)

                try await Task.sleep(for: .seconds(1.1))   // the floor between two retries by hand
                #expect(try await server.post("/api/panels/api/retry").status == 202)
                let afterRecovery = try await Self.metrics(server) { $0["statedeck_panel_up", Samples.panel("api")] == 1 }
                #expect(afterRecovery["statedeck_transitions_total", ["group": "", "source": "code", "to": "up"]] == 1)
                #expect(afterRecovery["statedeck_transitions_total", ["group": "", "source": "code", "to": "down"]] == 1)
                #expect(afterRecovery["statedeck_load_duration_seconds_count", Self.code] == 5)
                #expect(afterRecovery["statedeck_events_total"].map { $0 > 0 } == true)
            }
        }

        @Test func debugForcedStatesCountNowhere() async throws {
            try await RoutedServer.run { server in
                #expect(try await server.debug("db", #"{"state":"error","error":{"kind":"timeout"}}"#).status == 200)
                #expect(try await server.debug("api", #"{"state":"loading"}"#).status == 200)
                let samples = try await Self.metrics(server)
                #expect(samples["statedeck_panel_up", Samples.panel("db")] == 1)
                #expect(samples["statedeck_panel_loading", Samples.panel("api")] == 0)
                #expect(samples["statedeck_transitions_total", ["group": "", "source": "code", "to": "down"]] ?? 0 == 0)
                #expect(samples["statedeck_load_failures_total", ["group": "", "source": "code", "kind": "timeout"]] ?? 0 == 0)
            }
        }
    }
}
