import EventStream
import FoundationEssentials
import MicroHTTP
import StateDeck

/// The routes of PROTOCOL.md over the deck being served.
struct APIRoutes: Sendable {
    /// The current deck: a reloaded deck file replaces it.
    let deck: @Sendable () -> Deck
    let mirror: StateMirror
    let debugEnabled: Bool
    /// Bytes an SSE client may fall behind by before it is dropped.
    let streamCapacity: Int

    /// Adds every API route and `/events` to `router`.
    func register(on router: inout Router) {
        router.on(.get, "/api/state") { _, _ in
            .response(.api(.ok, mirror.stateDocument()))
        }
        router.on(.get, "/api/panels/{id}") { _, parameters in
            let id = parameters["id"] ?? ""
            guard let panel = mirror.panel(id) else {
                return .response(DeckError.unknownPanel(id).response)
            }
            return .response(.api(.ok, panel))
        }
        router.on(.post, "/api/panels/{id}/retry") { _, parameters in
            deferred {
                let result = try await deck().retry(panel: parameters["id"] ?? "")
                return .api(.accepted, #"{"accepted":true,"coalesced":\#(result.coalesced)}"#)
            }
        }
        router.on(.post, "/api/panels/{id}/recover") { request, parameters in
            deferred {
                let body = try RequestBody.decode(RecoverBody.self, from: request)
                try await deck().recover(panel: parameters["id"] ?? "", option: body.option)
                return .api(.accepted, #"{"accepted":true}"#)
            }
        }
        router.on(.post, "/api/panels/{id}/items/{itemId}/actions/{actionId}") { _, parameters in
            deferred {
                try await deck().perform(
                    action: parameters["actionId"] ?? "", item: parameters["itemId"] ?? "",
                    panel: parameters["id"] ?? "")
                return .api(.accepted, #"{"accepted":true}"#)
            }
        }
        router.on(.post, "/api/debug/panels/{id}/state") { request, parameters in
            guard debugEnabled else {
                return .response(.apiError(
                    .forbidden, code: "forbidden",
                    message: "debug states are off: start statedeck with --debug"))
            }
            return deferred {
                let command = try DebugBody.command(from: request)
                let state = try await deck().debug(command, panel: parameters["id"] ?? "")
                return .api(.ok, try DeckJSON.makeEncoder().encode(state))
            }
        }
        router.on(.get, "/events") { request, _ in
            .response(EventsRoute.open(request: request, mirror: mirror, capacity: streamCapacity))
        }
    }

    /// Runs `work` off libmicrohttpd's thread; deck and request errors become their JSON answers.
    private func deferred(_ work: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPReply {
        .deferred {
            do {
                return try await work()
            } catch let error as DeckError {
                return error.response
            } catch let error as RequestBodyError {
                return .apiError(.badRequest, code: "bad_request", message: error.description)
            } catch {
                return .apiError(.internalServerError, code: "internal", message: "\(error)")
            }
        }
    }
}
