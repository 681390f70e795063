#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ResponseStream {
    /// Sends `bytes` to the client: straight to the socket of a caught-up client when they fit
    /// (see `ChunkSocket`), else through the queue. False if the stream is closed, or if the
    /// client has fallen behind: more than `capacity` bytes are still waiting. The stream then
    /// closes and the client is dropped. A client within its capacity always takes a write,
    /// however large (the first snapshot of a big deck).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        write(bytes, sendingNow: true)
    }

    /// `write` through the queue only: libmicrohttpd's thread sends it, with whatever else is
    /// queued by then, and the caller never waits for the kernel.
    @discardableResult
    public func enqueue(_ bytes: [UInt8]) -> Bool {
        write(bytes, sendingNow: false)
    }

    private func write(_ bytes: [UInt8], sendingNow: Bool) -> Bool {
        state.withLock { state in
            guard state.phase == .open else { return false }
            guard state.queuedBytes <= capacity else {
                state.drop()
                return false
            }
            if sendingNow, state.suspended, state.queuedBytes == 0, let socket = state.attachment?.socket {
                switch ChunkSocket(descriptor: socket).send(bytes) {
                case .sent: return true
                case .torn:
                    // The client sees the body break off, reconnects and catches up from its
                    // `Last-Event-ID`.
                    state.drop()
                    return false
                case .refused: break
                }
            }
            // An empty chunk would read as the end of a chunked body.
            if !bytes.isEmpty {
                state.chunks.append(bytes)
                state.queuedBytes += bytes.count
            }
            state.resumeIfSuspended()
            return true
        }
    }

    /// Ends the stream once the queued bytes are sent. Later writes return false.
    public func finish() {
        _ = end()
    }

    /// `finish()`, telling whether the connection was waiting suspended (it was resumed, and
    /// only the end of the stream is left to send).
    func end() -> Bool {
        state.withLock { state in
            guard state.phase == .open else { return false }
            state.phase = .finishing
            return state.resumeIfSuspended()
        }
    }

    /// Runs `handler` exactly once when the stream ends, whatever ended it: the client left,
    /// overflow, `finish()`, or server stop. It runs on libmicrohttpd's thread once the server
    /// lets go of the connection (never inside `write` or `finish`), or at once if that has
    /// already happened.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let ended = state.withLock { state in
            if state.phase != .ended {
                state.closeHandlers.append(handler)
            }
            return state.phase == .ended
        }
        if ended {
            handler()
        }
    }
}

extension ResponseStream.State {
    /// Drops the queue and has libmicrohttpd close the connection: a suspended one is resumed
    /// (the reader then fails the stream); one waiting for a socket the client no longer drains
    /// has the socket shut down (under the lock, so it is still the connection's), which fails
    /// the send now instead of at the idle timeout.
    mutating func drop() {
        phase = .dropped
        chunks = []
        offset = 0
        queuedBytes = 0
        if !suspended, let attachment {
            shutdown(attachment.socket, Int32(SHUT_RDWR))
        }
        resumeIfSuspended()
    }

    /// Resumes the connection if the reader suspended it; true if it did. Called under the
    /// lock, so once a stream is closed no resume can still be on its way: `HTTPServer.stop`
    /// relies on that before `MHD_stop_daemon`, which must not meet a suspended connection
    /// nor outlive a late resume.
    @discardableResult
    mutating func resumeIfSuspended() -> Bool {
        guard suspended, let connection = attachment?.connection else { return false }
        suspended = false
        connection.resume()
        return true
    }
}
