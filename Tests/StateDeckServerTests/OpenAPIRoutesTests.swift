@testable import StateDeckServer
import Testing

/// The operations `docs/openapi.yaml` lists under `paths:`, as `METHOD /path`, read line by line:
/// a path is a key indented by two spaces, its operations keys indented by four.
func documentedOperations(in document: String) -> Set<String> {
    let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    var operations: Set<String> = []
    var inPaths = false
    var path: String?
    for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
        if !line.hasPrefix(" "), !line.isEmpty {
            inPaths = line.hasPrefix("paths:")
            path = nil
        } else if inPaths, line.hasPrefix("  /"), !line.hasPrefix("   ") {
            path = String(line.dropFirst(2).prefix { $0 != ":" })
        } else if inPaths, let path, line.hasPrefix("    "), !line.hasPrefix("     ") {
            let key = line.dropFirst(4).prefix { $0 != ":" }
            if methods.contains(String(key)) { operations.insert("\(key.uppercased()) \(path)") }
        }
    }
    return operations
}

/// The API's document and the server's router name the same operations, so a route cannot be
/// added or removed without its description.
@Suite struct OpenAPIDocumentReadingTests {
    @Test func readsEachPathsOperationsAndNothingOutsidePaths() {
        let document = """
            openapi: 3.1.0
            paths:
              /api/state:
                get:
                  summary: state
                  responses: {}
              /api/panels/{id}/retry:
                parameters:
                  - $ref: "#/components/parameters/PanelId"
                post:
                  responses:
                    "202":
                      description: get
            components:
              schemas:
                post:
                  type: object
            """
        #expect(documentedOperations(in: document) == ["GET /api/state", "POST /api/panels/{id}/retry"])
    }
}

extension Routed {
    @Suite struct OpenAPIRoutesTests {
        @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
            let documented = documentedOperations(in: try RepositoryFile.text("docs/openapi.yaml"))
            try await RoutedServer.run { server in
                let routed = Set(server.deckServer.routes.map { "\($0.method) \($0.pattern)" })
                #expect(!routed.isEmpty)
                let undocumented = routed.subtracting(documented).sorted()
                let absent = documented.subtracting(routed).sorted()
                #expect(undocumented.isEmpty, "routes the server answers that docs/openapi.yaml lacks: \(undocumented)")
                #expect(absent.isEmpty, "routes docs/openapi.yaml lists that the server lacks: \(absent)")
            }
        }
    }
}
