#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe's two descriptors, both close-on-exec.
struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws(LaunchFailure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw LaunchFailure(reason: "cannot create a pipe: \(String(cString: strerror(errno)))", code: errno)
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        read = ends[0]
        write = ends[1]
    }

    func closeBoth() {
        close(read)
        close(write)
    }
}
