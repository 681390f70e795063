extension ServerCore {
    /// Hands `response` to libmicrohttpd for `context`'s connection. False (close the
    /// connection) if it cannot be queued. The request's phase was moved on by `access`.
    func send(_ response: HTTPResponse, for context: RequestContext) -> Bool {
        // Found by the answer's own headers: the standard ones are the same on every answer.
        if case .shared(let shared) = response.body,
           let built = shared.builtResponse(status: response.status, headers: response.headers) {
            return context.connection.queue(built, status: response.status)
        }
        var headers = response.headers
        for standard in configuration.standardHeaders where headers[standard.name] == nil {
            headers.add(standard.name, standard.value)
        }
        let handle: ResponseHandle?
        switch response.body {
        case .bytes(let bytes):
            handle = ResponseHandle(bytes: bytes)
        case .shared(let shared):
            handle = ResponseHandle(bytes: shared.bytes)
        case .stream(let stream):
            handle = serve(stream, for: context)
        }
        guard let handle else {
            logger.error("libmicrohttpd could not create a response", metadata: ["status": "\(response.status)"])
            return false
        }
        let refused = handle.add(headers)
        if !refused.isEmpty {
            logger.warning("libmicrohttpd refused response headers", metadata: ["headers": "\(refused)"])
        }
        let queued = context.connection.queue(handle, status: response.status)
        if case .shared(let shared) = response.body, shared.keep(handle, status: response.status, headers: response.headers) {
            return queued
        }
        handle.release()
        return queued
    }

    /// Attaches `stream` to the connection, counts it live until it detaches, watches for its
    /// client leaving, and wraps it in a content-reader response. Nil if the stream already
    /// answers another request.
    private func serve(_ stream: ResponseStream, for context: RequestContext) -> ResponseHandle? {
        let id = registry.withLock { registry in
            registry.lastStreamID += 1
            return registry.lastStreamID
        }
        let attached = stream.attach(to: context.connection) { [registry] in
            registry.withLock { $0.streams[id] = nil }
        }
        guard attached else {
            logger.error("a ResponseStream was returned for a second request")
            return nil
        }
        let stopping = registry.withLock { registry in
            registry.streams[id] = stream
            return registry.shuttingDown
        }
        if stopping {
            stream.finish()
        } else {
            hangups?.watch(context.connection.socket, stream: id)
        }
        context.state.withLock { $0.stream = stream }
        guard let handle = ResponseHandle(streaming: stream) else {
            stream.detach()
            return nil
        }
        return handle
    }
}
