import EventStream
import MicroHTTP

extension ResponseStream: EventSink {}

/// `GET /events`: one SSE stream per client, registered with the hub.
enum EventsRoute {
    static func open(request: HTTPRequest, mirror: StateMirror, capacity: Int) -> HTTPResponse {
        let hub = mirror.hub
        let stream = ResponseStream(capacity: capacity)
        let subscription = hub.subscribe(stream, lastEventID: request.headers["Last-Event-ID"]) { eventID in
            String(decoding: mirror.stateDocument(at: eventID).bytes, as: UTF8.self)
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
