import EventStream
import MicroHTTP

extension ResponseStream: @retroactive EventSink {}

/// `GET /events`: one SSE stream per client, registered with the hub.
enum EventsRoute {
    static func open(request: HTTPRequest, hub: EventHub, mirror: StateMirror) -> HTTPResponse {
        let stream = ResponseStream(capacity: streamCapacity)
        let subscription = hub.subscribe(stream, lastEventID: request.headers["Last-Event-ID"]) { eventID in
            String(decoding: mirror.stateDocument(at: eventID), as: UTF8.self)
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

    /// Bytes a client may fall behind by before it is dropped: about a thousand panel changes.
    static let streamCapacity = 1 << 20
}
