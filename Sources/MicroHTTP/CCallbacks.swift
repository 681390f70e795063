// The C boundary: every `@convention(c)` function libmicrohttpd calls, and every `Unmanaged`
// box passed through its `void *` closures. Each callback forwards at once to Swift types.

import CMicroHTTPD
import Threading

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Daemon

extension ServerCore {
    /// Starts the daemon (`MHD_start_daemon` through `statedeck_start_daemon`, options as one
    /// `MHD_OPTION_ARRAY`). Throws with the errno text when libmicrohttpd refuses, e.g. the
    /// port is taken.
    func startDaemon(on address: SocketAddress) throws(HTTPServerError) -> Daemon {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        // Unretained: HTTPServer owns the core and stops the daemon before letting it go.
        let core = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withSockaddr { sockaddr, _ in
            let options = [
                // First, or libmicrohttpd prints what the options before it report to stderr.
                option(.EXTERNAL_LOGGER, unsafeBitCast(logMessage as MHD_LogCallback, to: Int.self), core),
                option(.SOCK_ADDR, 0, UnsafeMutableRawPointer(mutating: sockaddr)),
                option(.CONNECTION_LIMIT, configuration.connectionLimit),
                option(.PER_IP_CONNECTION_LIMIT, configuration.perIPConnectionLimit),
                option(.CONNECTION_TIMEOUT, configuration.connectionTimeoutSeconds),
                option(.CONNECTION_MEMORY_LIMIT, configuration.connectionMemoryLimit),
                option(.THREAD_POOL_SIZE, configuration.threadPoolSize),
                option(.STRICT_FOR_CLIENT, 1),
                option(.URI_LOG_CALLBACK, unsafeBitCast(requestStarted as URILogCallback, to: Int.self), core),
                option(.NOTIFY_COMPLETED, unsafeBitCast(requestFinished as MHD_RequestCompletedCallback, to: Int.self), core),
                option(.NOTIFY_CONNECTION, unsafeBitCast(connectionChanged as MHD_NotifyConnectionCallback, to: Int.self), core),
                option(.UNESCAPE_CALLBACK, unsafeBitCast(keepEscaped as UnescapeCallback, to: Int.self)),
                option(.END),
            ]
            return statedeck_start_daemon(flags, 0, handleAccess, core, options)
        }
        guard let started else {
            throw .cannotStart(
                host: configuration.host, port: configuration.port, reason: String(cString: strerror(errno)))
        }
        deadlines?.start()
        return Daemon(pointer: started)
    }
}

/// One `MHD_OPTION_ARRAY` entry: integers in `value`; pointers, and the closure of a
/// function option (whose function goes in `value`), in `ptr_value`.
private func option(_ option: MHD_OPTION, _ value: Int = 0, _ pointer: UnsafeMutableRawPointer? = nil) -> MHD_OptionItem {
    MHD_OptionItem(option: option, value: value, ptr_value: pointer)
}

/// The types libmicrohttpd documents for these two options but does not declare.
private typealias URILogCallback = @convention(c) (
    UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?
) -> UnsafeMutableRawPointer?
private typealias UnescapeCallback = @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?
) -> Int

private func core(_ pointer: UnsafeMutableRawPointer?) -> ServerCore {
    Unmanaged<ServerCore>.fromOpaque(pointer!).takeUnretainedValue()
}

/// `MHD_OPTION_EXTERNAL_LOGGER`: libmicrohttpd's messages into swift-log, not stderr. Debug
/// level: each departing stream client logs a send failure, and start errors are thrown.
private func logMessage(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let message = String(decoding: bytes.reversed().drop { $0 == UInt8(ascii: "\n") }.reversed(), as: UTF8.self)
    core(cls).logger.debug("libmicrohttpd: \(message)")
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: the first sight of a request, with its target as received.
private func requestStarted(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    // The socket context is set by `connectionChanged` for every connection before its first request.
    guard let uri, let connection, let socketContext = statedeck_connection_socket_context(connection) else { return nil }
    let connectionContext = Unmanaged<ConnectionContext>.fromOpaque(socketContext).takeUnretainedValue()
    // Validated here, straight from the C string: the standard library's fastest UTF-8 check.
    let context = connectionContext.startRequest(target: String(validatingCString: uri), targetSize: strlen(uri))
    // Balanced by `requestFinished`, which libmicrohttpd calls for every request it logged.
    return Unmanaged.passRetained(context).toOpaque()
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over, however it ended.
private func requestFinished(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let requestContext, let pointer = requestContext.pointee else { return }
    requestContext.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
    core(cls).requestCompleted(context)
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: a connection opened or closed. `CLOSED` comes before
/// libmicrohttpd closes the socket.
private func connectionChanged(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let connection, let socketContext else { return }
    let deadlines = core(cls).deadlines
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let opened = Connection(pointer: connection)
        let deadline = deadlines?.opened(socket: opened.socket)
        // Balanced by the `CLOSED` notification below, which libmicrohttpd sends for every
        // connection it announced as started.
        socketContext.pointee = Unmanaged.passRetained(ConnectionContext(connection: opened, deadline: deadline)).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        let closed = Unmanaged<ConnectionContext>.fromOpaque(pointer).takeRetainedValue()
        if let deadline = closed.deadline {
            deadlines?.closed(deadline)
        }
    default: break
    }
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`: a no-op. Requests are decoded once, by `HTTPRequest`, from
/// the target `requestStarted` copied; left to itself libmicrohttpd would also decode its own
/// copy of path and query (`%2e%2e` to `..`, truncating at `%00`) for nothing.
private func keepEscaped(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ string: UnsafeMutablePointer<CChar>?) -> Int {
    string.map { strlen($0) } ?? 0
}

/// The access handler (`MHD_AccessHandlerCallback`).
private func handleAccess(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadSize: UnsafeMutablePointer<Int>?, _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let method, let uploadSize, let pointer = requestContext?.pointee else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
    let upload = UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : uploadSize.pointee)
    // Every body byte is taken (kept or, past the limit, dropped).
    uploadSize.pointee = 0
    let keep = core(cls).access(context, method: HTTPMethod(cString: method), upload: upload)
    return keep ? .YES : .NO
}

// MARK: - Request method

extension HTTPMethod {
    /// The method libmicrohttpd parsed. GET and HEAD, nearly every request, are matched
    /// without a string made of them (a bodiless request's method is read twice: for the fast
    /// path, then for the full way).
    init(cString method: UnsafePointer<CChar>) {
        if strcmp(method, "GET") == 0 {
            self = .get
        } else if strcmp(method, "HEAD") == 0 {
            self = .head
        } else {
            self.init(rawValue: String(cString: method))
        }
    }
}

// MARK: - Request headers

extension Connection {
    /// The request's header fields in order (`MHD_get_connection_values_n`, `MHD_HEADER_KIND`).
    var requestHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        // Counted first (no iterator), so the fields are stored once instead of regrown.
        headers.reserveCapacity(Int(MHD_get_connection_values_n(pointer, .HEADER_KIND, nil, nil)))
        _ = withUnsafeMutablePointer(to: &headers) {
            MHD_get_connection_values_n(pointer, .HEADER_KIND, collectHeader, $0)
        }
        return headers
    }
}

/// `MHD_KeyValueIteratorN` for `requestHeaders`; the closure is the `HTTPHeaders` being filled.
private func collectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
    let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(name, text)
    return .YES
}

// MARK: - Streams

extension ResponseHandle {
    /// A chunked response drained from `stream` (`MHD_create_response_from_callback`, size
    /// unknown).
    init?(streaming stream: ResponseStream) {
        // Balanced by `releaseStream` when libmicrohttpd destroys the response, or below if it
        // could not create one (it does not call the free callback then).
        let box = Unmanaged.passRetained(stream)
        // The block size is only an allocation per response: 0.9.75 reads chunked bodies
        // straight into the connection's write buffer (measured: same chunks at 64 B and
        // 16 KiB, and 16 KiB cost ~7 KiB more per stream).
        guard let created = MHD_create_response_from_callback(
            statedeck_size_unknown, 64, readStream, box.toOpaque(), releaseStream)
        else {
            box.release()
            return nil
        }
        self.init(pointer: created)
    }
}

/// `MHD_ContentReaderCallback`: the stream's queued bytes, or suspend, or the end.
private func readStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    let stream = Unmanaged<ResponseStream>.fromOpaque(cls!).takeUnretainedValue()
    switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
    case .bytes(let count): return count
    case .suspended: return 0
    case .finished: return -1  // MHD_CONTENT_READER_END_OF_STREAM: the closing chunk follows.
    case .failed: return -2  // MHD_CONTENT_READER_END_WITH_ERROR: the connection is closed.
    }
}

/// `MHD_ContentReaderFreeCallback`: libmicrohttpd is done with the stream.
private func releaseStream(_ cls: UnsafeMutableRawPointer?) {
    let stream = Unmanaged<ResponseStream>.fromOpaque(cls!).takeRetainedValue()
    stream.detach()
}
