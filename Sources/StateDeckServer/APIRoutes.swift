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
    /// it: a held copy behind another server the page was on; nil alone.
    let catchUp: Duration?
    /// Who sends each request (its ``RequestContext``): every accepted action is signed with it.
    let gate: RequestGate
    /// What every action runs through: its host's ``RunningDeckForwarder`` and ``SettledCheck``.
    let actions: MiddlewareChain
    /// What a read of what only the running deck holds runs through (the incidents, the notifier's
    /// log, an audit kept in memory): its host's ``RunningDeckForwarder``.
    let reads: MiddlewareChain
    /// Where signed actions are kept (`GET /api/audit`).
    let audit: AuditTrail

    /// Adds every API route, `/events`, the badges and the pings to `router`.
    func register(on router: inout Router) {
        router.on(.get, "/api/state") { request, _ in
            if request.query["at"] != nil { return momentRoute(request) }
            if let format = request.query["format"] { return .response(stateDownload(format: format)) }
            return .response(.api(.ok, mirror.stateDocument()))
        }
        router.on(.get, "/api/changes") { request, _ in
            changesRoute(request)
        }
        router.on(.get, "/api/panels/{id}") { _, parameters in
            let id = parameters["id"] ?? ""
            guard let panel = mirror.panel(id) else {
                return .response(DeckError.unknownPanel(id).response)
            }
            return .response(.api(.ok, panel))
        }
        router.on(.get, "/api/panels/{id}/ping") { _, parameters in
            .response(pingAddress(of: parameters["id"] ?? ""))
        }
        router.on(.post, "/api/panels/{id}/retry") { request, parameters in
            action(request) { _ in
                let panel = parameters["id"] ?? ""
                let result = try await deck().retry(panel: panel)
                return ActionOutcome(.api(.accepted, #"{"accepted":true,"coalesced":\#(result.coalesced)}"#),
                                     audit: AuditNote(action: .retry, panel: panel))
            }
        }
        router.on(.post, "/api/panels/{id}/recover") { request, parameters in
            action(request) { _ in
                let (body, panel) = (try RequestBody.decode(RecoverBody.self, from: request), parameters["id"] ?? "")
                let option = try await deck().recover(panel: panel, option: body.option)
                return ActionOutcome(.api(.accepted, #"{"accepted":true}"#),
                                     audit: AuditNote(action: .recover, panel: panel, subject: option.label, detail: option.id))
            }
        }
        router.on(.post, "/api/panels/{id}/items/{itemId}/actions/{actionId}") { request, parameters in
            action(request) { _ in
                let (panel, item, actionId) = (parameters["id"] ?? "", parameters["itemId"] ?? "", parameters["actionId"] ?? "")
                let work = try await deck().perform(action: actionId, item: item, panel: panel)
                return ActionOutcome(.api(.accepted, #"{"accepted":true}"#),
                                     audit: AuditNote(action: .itemAction, panel: panel, subject: work, detail: "\(actionId) on \(item)"))
            }
        }
        router.on(.post, "/api/debug/panels/{id}/state") { request, parameters in
            guard debugEnabled else {
                return .response(.apiError(
                    .forbidden, code: "forbidden",
                    message: "debug states are off: start statedeck with --debug"))
            }
            return action(request) { _ in
                let (command, panel) = (try DebugBody.command(from: request), parameters["id"] ?? "")
                let state = try await deck().debug(command, panel: panel)
                return ActionOutcome(.api(.ok, try DeckJSON.makeEncoder().encode(state)), audit: .debug(command, panel: panel))
            }
        }
        registerMaintenance(on: &router)
        router.on(.get, "/api/audit") { request, _ in
            auditRoute(request)
        }
        registerIncidents(on: &router)
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
        PingRoutes(deck: deck) { request, work in action(request, answering: work) }.register(on: &router)
        NotifyRoutes(log: notificationLog) { request, work in respond(to: request, through: reads) { _ in try await work() } }
            .register(on: &router)
        NotifyTestRoute(deck: deck, log: notificationLog) { request, work in action(request) { _ in try await work() } }.register(on: &router)
    }

    /// The maintenance windows: listed from the mirror (a held copy answers too), started and ended
    /// as the deck's other actions are, and answered once the history has saved them with their
    /// audit entries: the deck a restart or the next process to run it continues opens again the
    /// windows the history kept.
    private func registerMaintenance(on router: inout Router) {
        router.on(.get, "/api/maintenance") { _, _ in
            .response(.api(.ok, mirror.maintenanceDocument()))
        }
        router.on(.post, "/api/maintenance") { request, _ in
            action(request) { _ in
                let span = try await MaintenanceBody.decode(from: request).start(on: deck())
                return ActionOutcome(.api(.created, try DeckJSON.makeEncoder().encode(span)),
                                     audit: .maintenance(.maintenanceStarted, span))
            }
        }
        router.on(.delete, "/api/maintenance/{id}") { request, parameters in
            action(request) { _ in
                let span = try await deck().endMaintenance(parameters["id"] ?? "")
                return ActionOutcome(.api(.ok, try DeckJSON.makeEncoder().encode(span)), audit: .maintenance(.maintenanceEnded, span))
            }
        }
    }

    /// The incidents and announcements: opened and updated as the deck's other actions are (the
    /// author is the caller, who signs them), answered once the history has saved them with their
    /// audit entries, so a restart or the next process to run the deck keeps them; read from the deck, on
    /// the server that runs it.
    private func registerIncidents(on router: inout Router) {
        router.on(.get, "/api/incidents") { request, _ in
            respond(to: request, through: reads) { _ in
                let list = IncidentList(incidents: await deck().incidentList(limit: try IncidentList.limit(request.query)))
                return .api(.ok, try DeckJSON.makeEncoder().encode(list))
            }
        }
        router.on(.get, "/api/incidents/{id}") { request, parameters in
            respond(to: request, through: reads) { _ in
                .api(.ok, try DeckJSON.makeEncoder().encode(try await deck().incident(parameters["id"] ?? "")))
            }
        }
        router.on(.post, "/api/incidents") { request, _ in
            action(request) { context in
                let incident = try await IncidentBody.decode(from: request).open(on: deck(), author: context.caller.name)
                return ActionOutcome(.api(.created, try DeckJSON.makeEncoder().encode(incident)),
                                     audit: AuditNote(action: .incidentOpened, subject: incident.title, detail: incident.status.rawValue))
            }
        }
        router.on(.post, "/api/incidents/{id}/updates") { request, parameters in
            action(request) { context in
                let body = try IncidentUpdateBody.decode(from: request)
                let incident = try await deck().updateIncident(parameters["id"] ?? "", status: body.status,
                                                               message: body.message, author: context.caller.name)
                return ActionOutcome(.api(.ok, try DeckJSON.makeEncoder().encode(incident)),
                                     audit: AuditNote(action: .incidentUpdated, subject: incident.title, detail: incident.status.rawValue))
            }
        }
    }

    /// `GET /api/panels/{id}/ping`: the path a heartbeat's job pings. It holds the ping's key, with
    /// which anyone can forge the job's results, so it is an operator's to read (``AccessRule``)
    /// and no state, moment or event carries it.
    private func pingAddress(of panel: String) -> HTTPResponse {
        guard mirror.panel(panel) != nil else { return DeckError.unknownPanel(panel).response }
        guard let path = deck().pingTargets.first(where: { $0.value == panel })?.key else {
            return .apiError(.notFound, code: "not_found", message: "panel \(panel) is not pinged at a URL")
        }
        return .api(.ok, #"{"pingPath":"# + JSONString.quoted(path) + "}")
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

    /// `GET /api/audit`: the signed actions, newest first, from the history store or, without
    /// one, from the memory of the server that runs the deck (which signed
    /// them); read off libmicrohttpd's thread.
    private func auditRoute(_ request: HTTPRequest) -> HTTPReply {
        let query: AuditQuery
        do {
            query = try HistoryParameters.auditQuery(request.query)
        } catch {
            return .response(.apiError(.badRequest, code: "bad_request", message: error.message))
        }
        return respond(to: request, through: history == nil ? reads : MiddlewareChain()) { _ in
            do {
                return .api(.ok, try DeckJSON.makeEncoder().encode(AuditDocument(entries: try audit.entries(query))))
            } catch let error as HistoryStoreError {
                return .apiError(.serviceUnavailable, code: "history_unavailable", message: error.description)
            }
        }
    }

    /// An action on the deck, signed with its context's caller: run here by `work`, or, through
    /// ``actions``, by the server that runs the deck, which signs it there. An action `work`
    /// accepted (a 2xx answer) is kept in the audit before it is answered; a refused or failed one
    /// is not. A route of a person's action (an incident opened or updated too) runs through here
    /// and returns its ``ActionOutcome`` with the ``AuditNote`` of what it did.
    func action(_ request: HTTPRequest, _ work: @escaping @Sendable (RequestContext) async throws -> ActionOutcome) -> HTTPReply {
        respond(to: request, through: actions) { context in
            let outcome = try await work(context)
            if let note = outcome.audit, (200..<300).contains(outcome.response.status.rawValue) {
                await sign(note, by: context.caller)
            }
            return outcome.response
        }
    }

    /// An action whose `work` answers by calling the function it is handed, once, from any thread,
    /// rather than by returning, and signs nothing: many requests then wait on one piece of work
    /// (the pings a deck takes in one turn) without a task each. With no middleware in
    /// ``actions`` (a server alone) nothing stands between the request and `work`, which runs at
    /// once; otherwise it runs through them, as every action does.
    func action(_ request: HTTPRequest, answering work: @escaping PingRoutes.Answering) -> HTTPReply {
        guard actions.middlewares.isEmpty else {
            return action(request) { _ in ActionOutcome(await HTTPReply.awaiting(work).answer()) }
        }
        return .awaiting(work)
    }

    /// Keeps `note` signed by `caller` at the deck's time; returns once it is saved. Every route
    /// that acts for a person signs this way (an incident opened or updated too).
    func sign(_ note: AuditNote, by caller: Caller) async {
        await audit.record(note.signed(by: caller, at: deck().configuration.now()))
    }

    /// Answers `request` off libmicrohttpd's thread with `route`'s answer through `chain`, in the
    /// request's context; deck and request errors become their JSON answers.
    private func respond(to request: HTTPRequest, through chain: MiddlewareChain,
                         _ route: @escaping @Sendable (RequestContext) async throws -> HTTPResponse) -> HTTPReply {
        let context = RequestContext(request, gate: gate)
        return .deferred {
            do {
                return try await chain.respond(to: request, context: context) { _, context in try await route(context) }
            } catch let error as DeckError {
                return error.response
            } catch let error as RequestBodyError {
                return .apiError(.badRequest, code: "bad_request", message: error.description)
            } catch let error as FieldLimitError {
                return error.response
            } catch {
                return .apiError(.internalServerError, code: "internal", message: "\(error)")
            }
        }
    }
}
