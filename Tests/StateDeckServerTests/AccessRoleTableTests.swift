import MicroHTTP
import StateDeck
@testable import StateDeckServer
import TestSupport
import Testing

extension Routed {
    /// Every route of the router asked by a caller of every role, without sockets: the role a
    /// route needs (``AccessRule``'s table) lets that role and those above it through, and refuses
    /// those below with 403 naming it. A route added without a row fails here.
    @Suite struct AccessRoleTableTests {
        /// One token per role, each named after it.
        static let tokens = Dictionary(uniqueKeysWithValues: AccessRole.allCases.map { ($0, AccessToken.generate()) })
        static let access = AccessList(AccessRole.allCases.map {
            AccessList.Entry(name: $0.rawValue, role: $0, digest: TokenDigest(of: "\(tokens[$0]!)"))
        })

        static func options() -> TestDeckServerOptions {
            var options = TestDeckServerOptions()
            options.access = access
            return options
        }

        /// Whether the gate asks nothing of `pattern`'s requests: a ping's (its key is its credential)
        /// and the public status page's.
        static func isPublic(_ pattern: String) -> Bool {
            pattern.hasPrefix("/ping/") || pattern == "/status" || pattern.hasPrefix("/status/")
        }

        /// `pattern` with each parameter given a value the test deck has.
        static func path(of pattern: String) -> String {
            pattern.replacingOccurrences(of: "{id}", with: "jobs").replacingOccurrences(of: "{itemId}", with: "job-1")
                .replacingOccurrences(of: "{actionId}", with: "restart").replacingOccurrences(of: "{panel}", with: "jobs")
                .replacingOccurrences(of: "{key}", with: "k").replacingOccurrences(of: "{signal}", with: "start")
        }

        @Test func everyRouteHasARuleAndEveryPermissionItsRow() async throws {
            try await RoutedServer.run(Self.options()) { server in
                for route in server.deckServer.routes where !Self.isPublic(route.pattern) {
                    let segments = Self.path(of: route.pattern).split(separator: "/").map(String.init)
                    #expect(AccessRule.rule(for: route.method, segments) != nil, "\(route.method) \(route.pattern) has no row")
                }
            }
            for permission in AccessRule.Permission.allCases {
                #expect(AccessRule.table.contains { $0.permission == permission }, "\(permission)")
            }
        }

        @Test func eachRoleIsLetThroughOrRefusedWithTheRoleNeeded() async throws {
            try await RoutedServer.run(Self.options()) { server in
                for route in server.deckServer.routes where !Self.isPublic(route.pattern) {
                    let path = Self.path(of: route.pattern)
                    let needed = try #require(AccessRule.rule(for: route.method, path.split(separator: "/").map(String.init))).role
                    for role in AccessRole.allCases {
                        let label = "\(route.method) \(path) as a \(role)"
                        let headers = [("Authorization", "Bearer \(Self.tokens[role]!)"), ("Content-Type", "application/json")]
                        let response: HTTPTestResponse
                        do {
                            response = try await server.request(route.method.rawValue, path, headers: headers,
                                                                body: route.method == .get ? nil : Array("{}".utf8))
                        } catch is RoutedStreamError {
                            #expect(role >= needed, "\(label): a stream was opened")
                            continue
                        }
                        if role < needed {
                            #expect(response.status == 403, "\(label): \(response.text)")
                            #expect(response.apiError?.code == "forbidden", "\(label)")
                            #expect(response.apiError?.role == needed.rawValue, "\(label)")
                            #expect(response.apiError?.message.hasSuffix("needs the \(needed.rawValue) role; \(role.rawValue) is a\(role == .operator ? "n" : "") \(role.rawValue)") == true,
                                    "\(label): \(response.text)")
                        } else {
                            #expect(response.status != 403, "\(label): \(response.text)")
                        }
                    }
                }
            }
        }

        @Test func theRefusalNamesWhatWasAskedAndWho() async throws {
            try await RoutedServer.run(Self.options()) { server in
                let response = try await server.request(
                    "POST", "/api/panels/api/retry", headers: [("Authorization", "Bearer \(Self.tokens[.viewer]!)")])
                #expect(response.status == 403)
                #expect(response.text == #"{"error":{"code":"forbidden","message":"retrying a panel needs the operator role; viewer is a viewer","role":"operator"}}"#)
                #expect(response.header("Cache-Control") == "no-store")
            }
        }

        @Test func theCallerRouteSaysWhatTheRoleMayDo() async throws {
            try await RoutedServer.run(Self.options()) { server in
                let viewer = try await server.get("/api/caller", headers: [("Authorization", "Bearer \(Self.tokens[.viewer]!)")])
                #expect(viewer.status == 200)
                #expect(viewer.text == #"{"name":"viewer","role":"viewer","may":{"retry":false,"recover":false,"itemActions":false,"maintenance":false,"incidents":false,"notifyTest":false,"pingURL":false,"debug":false},"why":{"retry":"Needs the operator role; you are a viewer","recover":"Needs the operator role; you are a viewer","itemActions":"Needs the operator role; you are a viewer","maintenance":"Needs the operator role; you are a viewer","incidents":"Needs the operator role; you are a viewer","notifyTest":"Needs the operator role; you are a viewer","pingURL":"Needs the operator role; you are a viewer","debug":"Needs the designer role; you are a viewer"}}"#)
                let operator_ = try await server.get("/api/caller", headers: [("Authorization", "Bearer \(Self.tokens[.operator]!)")])
                #expect(operator_.text == #"{"name":"operator","role":"operator","may":{"retry":true,"recover":true,"itemActions":true,"maintenance":true,"incidents":true,"notifyTest":true,"pingURL":true,"debug":false},"why":{"debug":"Needs the designer role; you are an operator"}}"#)
                let designer = try await server.get("/api/caller", headers: [("Authorization", "Bearer \(Self.tokens[.designer]!)")])
                #expect(designer.text.hasPrefix(#"{"name":"designer","role":"designer","may":{"retry":true,"recover":true,"itemActions":true,"maintenance":true,"incidents":true,"notifyTest":true,"pingURL":true,"debug":true},"why":{}}"#))
            }
            var withoutDebug = Self.options()
            withoutDebug.debug = false
            try await RoutedServer.run(withoutDebug) { server in
                let designer = try await server.get("/api/caller", headers: [("Authorization", "Bearer \(Self.tokens[.designer]!)")])
                #expect(designer.text.hasSuffix(#""debug":false},"why":{"debug":"Debug states are off: start statedeck with --debug"}}"#))
            }
        }

        @Test func withoutTokensTheCallerIsLocalAndATokenFileIsAnOperator() async throws {
            var local = Self.options()
            local.access = nil
            try await RoutedServer.run(local) { server in
                let caller = try await server.get("/api/caller")
                #expect(caller.text.hasPrefix(#"{"name":"local","role":"designer","#))
            }
            var single = Self.options()
            let token = AccessToken.generate()
            single.access = nil
            single.token = token
            try await RoutedServer.run(single) { server in
                let bearer = [("Authorization", "Bearer \(token)")]
                #expect(try await server.get("/api/caller", headers: bearer).text.hasPrefix(#"{"name":"token","role":"operator","#))
                #expect(try await server.request("POST", "/api/panels/api/retry", headers: bearer).status == 202)
                let debug = try await server.request("POST", "/api/debug/panels/api/state", headers: bearer + [("Content-Type", "application/json")],
                                                     body: Array(#"{"state":"loading"}"#.utf8))
                #expect(debug.status == 403)
            }
        }

        @Test func theGateNamesTheCallerOfARequest() throws {
            let gate = RequestGate(configuredHost: "127.0.0.1", access: Self.access)
            gate.bind(port: 8080)
            for role in AccessRole.allCases {
                let request = try HTTPRequest(method: .post, target: "/api/panels/api/retry",
                                              headers: ["Cookie": "\(AccessToken.cookieName(port: 8080))=\(Self.tokens[role]!)"])
                #expect(gate.caller(of: request) == Caller(name: role.rawValue, role: role))
            }
            #expect(gate.caller(of: try HTTPRequest(method: .get, target: "/", headers: ["Authorization": "Bearer nobody"])) == nil)
            let open = RequestGate(configuredHost: "127.0.0.1", access: nil)
            #expect(open.caller(of: try HTTPRequest(method: .get, target: "/")) == .local)
        }

        @Test func publicPathsAskNoTokenButTheHost() throws {
            let gate = RequestGate(configuredHost: "127.0.0.1", access: Self.access)
            gate.bind(port: 8080)
            let page = try HTTPRequest(method: .get, target: "/status", headers: ["Host": "127.0.0.1:8080", "Sec-Fetch-Site": "cross-site"])
            #expect(gate.intercept(page) == nil)
            let under = try HTTPRequest(method: .get, target: "/status/feed.json", headers: ["Host": "127.0.0.1:8080"])
            #expect(gate.intercept(under) == nil)
            let foreign = try HTTPRequest(method: .get, target: "/status", headers: ["Host": "evil.example:8080"])
            #expect(gate.intercept(foreign)?.status == .forbidden)
            let state = try HTTPRequest(method: .get, target: "/statusx", headers: ["Host": "127.0.0.1:8080"])
            #expect(gate.intercept(state)?.status == .forbidden)
        }
    }
}
