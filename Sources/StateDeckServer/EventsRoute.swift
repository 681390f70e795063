import EventStream
import MicroHTTP

extension ResponseStream: EventSink {}

/// `GET /events`: one SSE stream per client, registered with the hub.
enum EventsRoute {
    static func open(request: HTTPRequest, mirror: StateMirror, capacity: Int) -> HTTPResponse {
        let hub = mirror.hub
        // A stream opens with the whole state document (or the events missed), which on a big deck
        // is larger than `capacity`; the client is behind only when it is that much further back.
        // Without this, a deck of 2,520 panels whose first loads were ending dropped new streams
        // before their first byte went out: the snapshot and the burst after it passed `capacity`
        // before libmicrohttpd's thread had sent anything.
        let stream = ResponseStream(capacity: capacity + mirror.stateDocument().bytes.count)
        let subscription = hub.subscribe(stream, lastEventID: request.headers["Last-Event-ID"]) { eventID in
            mirror.openingSnapshot(at: eventID)
        }
        if let subscription {
            stream.onClose { hub.unsubscribe(subscription) }
        }
        var headers = HTTPHeaders()
        for header in EventHub.responseHeaders {
            headers.add(header.name, header.value)
        }
        return HTTPResponse(status: .ok, headers: headers, body: .stream(stream))
    }
}
