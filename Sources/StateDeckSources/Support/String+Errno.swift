#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension String {
    /// The system's words for `errno` `code` (`strerror`): "Connection refused".
    init(errno code: Int32) {
        self.init(cString: strerror(code))
    }
}
