import Locking
import MicroHTTP

/// Answers every request with a new event stream and keeps the streams for the test to drive.
final class StreamRoute: HTTPResponder {
    let capacity: Int
    let streams = Locked<[ResponseStream]>([])
    let closed = Locked(0)

    init(capacity: Int = 256 * 1024) {
        self.capacity = capacity
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        let stream = ResponseStream(capacity: capacity)
        stream.onClose { [closed] in closed.withLock { $0 += 1 } }
        streams.withLock { $0.append(stream) }
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]
        return .response(HTTPResponse(status: .ok, headers: headers, body: .stream(stream)))
    }

    var all: [ResponseStream] { streams.current }
}

let hello = Array("data: hello\n\n".utf8)
