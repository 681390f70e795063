import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of its own for work that blocks (a child's exit, a pipe, a name lookup) or loops for
/// good (the http engine, the TCP probe loop): never a thread of Swift's concurrency pool, nor a
/// shared Dispatch worker, where one blocked job could hold others up before they start.
public enum DetachedThread {
    /// Runs `body` on a new detached thread (`pthread_create` with `PTHREAD_CREATE_DETACHED`).
    public static func run(_ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // Balanced by `takeRetainedValue()` in `start`, which runs once on the new thread, or
        // by `release()` below when there is no thread.
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, start, box.toOpaque()) == 0 else {
            // At the system's thread limit a shared worker is better than stopping.
            box.release()
            DispatchQueue.global().async(execute: body)
            return
        }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { box in
        Unmanaged<Body>.fromOpaque(box!).takeRetainedValue().run()
        return nil
    }
}

extension DetachedThread {
    /// Names the calling thread (at most 15 bytes), as `top -H`, `ps -L` and `/proc` show it:
    /// written to `/proc/thread-self/comm`, since glibc's `pthread_setname_np` is not visible to
    /// Swift. Does nothing where there is no such file.
    public static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, bytes, bytes.count)
    }
}
