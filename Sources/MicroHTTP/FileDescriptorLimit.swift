#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit, which caps how many clients can be connected at once.
public enum FileDescriptorLimit {
    /// Descriptors kept back from the connection limit for listening sockets, logs, files
    /// served, outbound health checks and libmicrohttpd's own pipes and epoll sets.
    public static let reserve = 64

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit and returns the soft limit now in force.
    @discardableResult
    public static func raiseSoftLimitToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            }
        }
        // libmicrohttpd takes the limit as a C unsigned int; "unlimited" must not wrap.
        return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
    }

    /// The soft limit after raising it, minus `reserve` (never below 16).
    public static func defaultConnectionLimit() -> Int {
        max(16, raiseSoftLimitToHard() - reserve)
    }
}
