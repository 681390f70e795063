extension ServerCore {
    /// What one access-handler call does, decided under the request's lock.
    private enum Step {
        case proceed
        case close
        case dispatch(HTTPHeaders, [UInt8])
        case send(HTTPResponse)
    }

    /// One call of libmicrohttpd's access handler for `context`'s request: the first call
    /// (headers), one per piece of body, then a final one with no body. Returns false to make
    /// libmicrohttpd close the connection. `method` is read only when the responder is asked.
    func access(_ context: RequestContext, method: @autoclosure () -> HTTPMethod, upload: UnsafeRawBufferPointer) -> Bool {
        let limit = configuration.maxBodySize
        let step: Step = context.state.withLock { state in
            switch state.phase {
            case .awaitingHeaders:
                // Before the fast path, so that no answer from the head goes past the limits.
                if let refusal = headRefusal(for: context) {
                    state.phase = .answered
                    return .send(refusal)
                }
                // Settled once: without either framing header no body comes, so there is none
                // to refuse, and the responder may answer from the head.
                let framesBody = context.connection.requestFramesBody
                if !framesBody, let answer = headAnswer(for: context, method: method) {
                    state.phase = .answeredFromHead(answer)
                    return .proceed
                }
                state.headers = context.connection.requestHeaders
                // Refused before any body byte is read; answering on the first call closes
                // the connection, which is what a client sending too much (or framing its body
                // two ways) should get.
                if framesBody, let refusal = bodyRefusal(for: state.headers) {
                    state.phase = .answered
                    return .send(refusal)
                }
                state.phase = .receivingBody
                return .proceed
            case .answeredFromHead(let response) where upload.isEmpty:
                state.phase = .dispatched
                return .send(response)
            case .receivingBody where upload.isEmpty:
                // Handed over, not kept: a stream's context lives as long as its connection.
                defer { (state.headers, state.body) = (HTTPHeaders(), []) }
                state.phase = .dispatched
                return .dispatch(state.headers, state.body)
            case .receivingBody:
                guard state.body.count + upload.count <= limit else {
                    // libmicrohttpd 0.9.75 refuses a response queued mid-body, so the rest is
                    // read and dropped, and 413 answered at the end.
                    state.phase = .bodyTooLarge(discarded: upload.count)
                    state.body = []
                    return .proceed
                }
                state.body.append(contentsOf: upload)
                return .proceed
            case .bodyTooLarge where upload.isEmpty:
                state.phase = .answered
                return .send(tooLarge)
            case .bodyTooLarge(let discarded):
                // Past this, the client is not going to stop: drop it unanswered.
                guard discarded + upload.count <= Self.discardAllowance else { return .close }
                state.phase = .bodyTooLarge(discarded: discarded + upload.count)
                return .proceed
            case .deferredDone(let response):
                state.phase = .answered
                return .send(response)
            case .deferredCancelled:
                state.phase = .answered
                return .send(stopping)
            case .answeredFromHead, .dispatched, .deferred, .answered:
                return .proceed
            }
        }
        switch step {
        case .proceed:
            return true
        case .close:
            return false
        case .dispatch(let headers, let body):
            context.deadline?.arrived()
            return dispatch(context, method: method(), headers: headers, body: body)
        case .send(let response):
            context.deadline?.arrived()
            return send(response, for: context)
        }
    }

    /// The responder's answer from the request's head (`HTTPResponder.respond(toHead:)`); asked
    /// only when the request frames no body, so that nothing it could send goes unread.
    private func headAnswer(for context: RequestContext, method: () -> HTTPMethod) -> HTTPResponse? {
        guard let target = context.target else { return nil }
        return responder.respond(toHead: RequestHead(method: method(), target: target, connection: context.connection))
    }

    /// The refusal of a request whose target or head is past the configured limits; nil within
    /// them. The limits lie well inside the connection's memory, so such a request reaches this
    /// answer instead of libmicrohttpd's own page. Answered on the first call, which closes the
    /// connection: the client sent more than a request of ours needs and is not read further.
    private func headRefusal(for context: RequestContext) -> HTTPResponse? {
        var refusal: HTTPResponse
        if context.targetSize > configuration.maxTargetSize {
            refusal = .error(.uriTooLong, code: "uri_too_long",
                             message: "the request target is longer than \(configuration.maxTargetSize) bytes")
        } else if context.connection.requestHeadSize > configuration.maxHeadSize {
            refusal = .error(.headerFieldsTooLarge, code: "header_fields_too_large",
                             message: "the request head is larger than \(configuration.maxHeadSize) bytes")
        } else {
            return nil
        }
        refusal.headers.set("Connection", "close")
        return refusal
    }

    /// The refusal of a request's body before any byte of it is read: framed ambiguously
    /// (`RequestFraming`), or a `Content-Length` over the limit. Nil if it may be read.
    private func bodyRefusal(for headers: HTTPHeaders) -> HTTPResponse? {
        if let refusal = RequestFraming.refusal(for: headers) { return refusal }
        guard let length = headers["Content-Length"].flatMap(Int.init), length > configuration.maxBodySize else { return nil }
        return tooLarge
    }

    /// Body bytes read and dropped past the limit, so the client gets to read its 413.
    static let discardAllowance = 1024 * 1024

    private var tooLarge: HTTPResponse {
        .error(.payloadTooLarge, code: "payload_too_large",
               message: "the request body is larger than \(configuration.maxBodySize) bytes")
    }

    private var stopping: HTTPResponse {
        .error(.serviceUnavailable, code: "internal", message: "the server is stopping")
    }

    /// Builds the request and asks the responder; a bad target gets 400 before routing.
    private func dispatch(_ context: RequestContext, method: HTTPMethod, headers: HTTPHeaders, body: [UInt8]) -> Bool {
        let request: HTTPRequest
        do throws(HTTPRequest.TargetError) {
            guard let target = context.target else { throw .notUTF8 }
            request = try HTTPRequest(method: method, target: target, headers: headers, body: body,
                                      client: context.connection.clientAddress)
        } catch {
            // Whatever else the client sends on this connection is not worth reading.
            var refusal = HTTPResponse.error(.badRequest, code: "bad_request", message: error.description)
            refusal.headers.set("Connection", "close")
            return send(refusal, for: context)
        }
        switch responder.respond(to: request) {
        case .response(let response):
            return send(response, for: context)
        case .deferred(let work):
            return wait(for: context) { answer in
                Task { answer(await work()) }
            }
        case .awaiting(let start):
            return wait(for: context, start)
        }
    }

    /// Suspends `context`'s connection until `start`'s answer comes; answers 503 at once if the
    /// server is stopping.
    private func wait(for context: RequestContext, _ start: (@escaping @Sendable (HTTPResponse) -> Void) -> Void) -> Bool {
        let accepted = registry.withLock { registry in
            guard !registry.shuttingDown else { return false }
            registry.deferred[ObjectIdentifier(context)] = context
            return true
        }
        if accepted {
            context.state.withLock { $0.deferred = true }
        }
        let started = accepted && context.runDeferred(start)
        return started || send(stopping, for: context)
    }
}
