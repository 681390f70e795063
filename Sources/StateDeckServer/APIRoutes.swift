import EventStream
import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory
import StateDeckNotifications

/// The routes of PROTOCOL.md over the deck being served.
struct APIRoutes: Sendable {
    /// The current deck: a reloaded deck file replaces it.
    let deck: @Sendable () -> Deck
    let mirror: StateMirror
    /// Nil when no history is kept.
    let history: (any HistoryStore)?
    let metrics: DeckMetrics
    /// What the notifiers decided and what became of it.
    let notificationLog: NotificationLog
    /// The timeline the uptime route draws without parameters.
    let timeline: (span: Duration, slots: Int)
    let debugEnabled: Bool
    /// Bytes an SSE client may fall behind by before it is dropped.
    let streamCapacity: Int
    /// How long a stream whose `Last-Event-ID` is newer than this server's newest event waits for
    /// it: a replica behind another server the page was on (a cluster); nil alone.
    let catchUp: Duration?
    /// Returns once what an action changed is kept beyond this server (a cluster's store).
    let settled: @Sendable () async -> Void
    /// The answer of the server that runs the deck, when this one does not (a cluster); nil when
    /// this one does.
    let forward: @Sendable (HTTPRequest) async -> HTTPResponse?

    /// Adds every API route, `/events`, the badges and the pings to `router`.
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
        router.on(.post, "/api/panels/{id}/retry") { request, parameters in
            action(request) {
                let result = try await deck().retry(panel: parameters["id"] ?? "")
                return .api(.accepted, #"{"accepted":true,"coalesced":\#(result.coalesced)}"#)
            }
        }
        router.on(.post, "/api/panels/{id}/recover") { request, parameters in
            action(request) {
                let body = try RequestBody.decode(RecoverBody.self, from: request)
                try await deck().recover(panel: parameters["id"] ?? "", option: body.option)
                return .api(.accepted, #"{"accepted":true}"#)
            }
        }
        router.on(.post, "/api/panels/{id}/items/{itemId}/actions/{actionId}") { request, parameters in
            action(request) {
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
            return action(request) {
                let command = try DebugBody.command(from: request)
                let state = try await deck().debug(command, panel: parameters["id"] ?? "")
                return .api(.ok, try DeckJSON.makeEncoder().encode(state))
            }
        }
        registerMaintenance(on: &router)
        router.on(.get, "/api/panels/{id}/history") { request, parameters in
            historyRoute(panel: parameters["id"] ?? "") { history, panel throws(HistoryParameters.Invalid) in
                let query = try HistoryParameters.historyQuery(request.query)
                return { () throws(HistoryStoreError) in try history.changes(of: panel, query) }
            }
        }
        router.on(.get, "/api/panels/{id}/uptime") { request, parameters in
            historyRoute(panel: parameters["id"] ?? "") { history, panel throws(HistoryParameters.Invalid) in
                let defaults = TimelineQuery(span: timeline.span, slots: timeline.slots)
                let query = try HistoryParameters.timelineQuery(request.query, defaults: defaults)
                return { () throws(HistoryStoreError) in try history.uptime(of: panel, query) }
            }
        }
        router.on(.get, "/metrics") { _, _ in
            .response(.metrics(metrics.exposition()))
        }
        router.on(.get, "/events") { request, _ in
            let hub = mirror.hub
            guard let catchUp, let seen = request.headers["Last-Event-ID"].flatMap(UInt64.init), seen > hub.lastEventID else {
                return .response(EventsRoute.open(request: request, mirror: mirror, capacity: streamCapacity))
            }
            // Answered at once, the page would get a snapshot older than what it has seen, then
            // those events again.
            return .deferred {
                _ = await hub.waitForEvent(seen, within: catchUp)
                return EventsRoute.open(request: request, mirror: mirror, capacity: streamCapacity)
            }
        }
        BadgeRoute(mirror: mirror, historyReader: historyReader) { deck().statusPage?.publicName(ofPanel: $0) }
            .register(on: &router)
        PingRoutes(deck: deck) { request, work in action(request, work) }.register(on: &router)
        NotifyRoutes(log: notificationLog, forward: forward).register(on: &router)
        NotifyTestRoute(deck: deck, log: notificationLog) { request, work in action(request, work) }.register(on: &router)
    }

    /// The maintenance windows: listed from the mirror (a replica answers too), started and ended
    /// as the deck's other actions are, and answered once the history has saved them: the deck a
    /// restart or a cluster's next leader continues opens again the windows the history kept.
    private func registerMaintenance(on router: inout Router) {
        router.on(.get, "/api/maintenance") { _, _ in
            .response(.api(.ok, mirror.maintenanceDocument()))
        }
        router.on(.post, "/api/maintenance") { request, _ in
            action(request) {
                let span = try await MaintenanceBody.decode(from: request).start(on: deck())
                await history?.saved()
                return .api(.created, try DeckJSON.makeEncoder().encode(span))
            }
        }
        router.on(.delete, "/api/maintenance/{id}") { request, parameters in
            action(request) {
                let span = try await deck().endMaintenance(parameters["id"] ?? "")
                await history?.saved()
                return .api(.ok, try DeckJSON.makeEncoder().encode(span))
            }
        }
    }

    /// A history route of `panel` whose answer is the JSON of what it read.
    private func historyRoute<Document: Encodable & Sendable>(
        panel: String,
        _ prepare: (any HistoryStore, String) throws(HistoryParameters.Invalid)
            -> @Sendable () throws(HistoryStoreError) -> Document
    ) -> HTTPReply {
        historyReader.reply(panel: panel, prepare) { document in
            .api(.ok, try DeckJSON.makeEncoder().encode(document))
        }
    }

    private var historyReader: PanelHistoryReader {
        PanelHistoryReader(history: history, mirror: mirror)
    }

    /// An action on the deck: run here by `work`, or by the server that runs the deck.
    private func action(_ request: HTTPRequest, _ work: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPReply {
        deferred {
            if let answer = await forward(request) { return answer }
            let answer = try await work()
            await settled()
            return answer
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
