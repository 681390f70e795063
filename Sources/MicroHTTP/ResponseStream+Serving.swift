/// The server's side of a stream: attach it to a connection, drain it, let go of it.
extension ResponseStream {
    /// What the content reader tells libmicrohttpd.
    enum ReadResult {
        case bytes(Int)
        /// Caught up: the connection was suspended until the next write.
        case suspended
        case finished
        /// Overflowed or already ended: close the connection without a clean end.
        case failed
    }

    /// Binds the stream to the connection it answers; false if it already answers one.
    func attach(to connection: Connection, onDetach: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.attachment == nil, state.phase != .ended else { return false }
            state.attachment = Attachment(
                connection: connection, socket: connection.socket, onDetach: onDetach)
            return true
        }
    }

    /// Copies as many queued bytes as fit into `buffer`; with none queued, ends the stream or
    /// suspends the connection (returning 0 without suspending would busy-loop the thread).
    /// Called by the content reader on libmicrohttpd's thread.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        state.withLock { state in
            guard state.queuedBytes == 0 else {
                let count = state.copy(into: buffer)
                state.idlePages.wrote(count, into: buffer)
                return .bytes(count)
            }
            switch state.phase {
            case .open:
                // Under the lock that `write` takes, so a write cannot slip in unseen.
                guard let connection = state.attachment?.connection, !state.clientHasLeft else {
                    state.drop()
                    return .failed
                }
                state.idlePages.release(buffer)
                state.suspended = true
                connection.suspend()
                return .suspended
            case .finishing: return .finished
            case .dropped, .ended: return .failed
            }
        }
    }

    /// The client closed its end (see `HangupWatcher`, which reports it once): drop the stream,
    /// so libmicrohttpd closes the connection instead of holding it until a write fails. A
    /// connection not suspended right now is still sending: it is dropped at its next suspend,
    /// as writes to a departed client can still succeed (the kernel buffers them).
    func clientLeft() {
        state.withLock { state in
            guard state.phase == .open else { return }
            if state.suspended {
                state.drop()
            } else {
                state.clientHasLeft = true
            }
        }
    }

    /// libmicrohttpd let go of the connection: ends the stream and runs the close handlers.
    /// Called from both the request-completed and the reader-free callbacks; the first wins.
    func detach() {
        let ended = state.withLock { state -> (Attachment, [@Sendable () -> Void])? in
            guard let attachment = state.attachment, state.phase != .ended else { return nil }
            state.phase = .ended
            state.chunks = []
            state.queuedBytes = 0
            state.suspended = false
            let handlers = state.closeHandlers
            state.closeHandlers = []
            return (attachment, handlers)
        }
        guard let (attachment, handlers) = ended else { return }
        attachment.onDetach()
        handlers.forEach { $0() }
    }

    /// True once libmicrohttpd has let go of the stream.
    var hasEnded: Bool {
        state.withLock { $0.phase == .ended }
    }
}

extension ResponseStream.State {
    /// Moves queued bytes into `buffer`, dropping chunks once fully sent.
    mutating func copy(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        var drained = 0
        for chunk in chunks {
            guard written < buffer.count else { break }
            let count = min(chunk.count - offset, buffer.count - written)
            chunk.withUnsafeBytes { source in
                buffer.baseAddress!.advanced(by: written)
                    .copyMemory(from: source.baseAddress!.advanced(by: offset), byteCount: count)
            }
            written += count
            offset += count
            if offset == chunk.count {
                drained += 1
                offset = 0
            }
        }
        chunks.removeFirst(drained)
        queuedBytes -= written
        return written
    }
}
