#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What tells one version of a file from another without reading it (`stat`); nil fields for no
/// file.
struct FileStamp: Equatable {
    /// Since the epoch.
    let modified: Duration?
    let size: Int?
    let inode: UInt?

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            (modified, size, inode) = (nil, nil, nil)
            return
        }
        modified = .seconds(info.st_mtim.tv_sec) + .nanoseconds(info.st_mtim.tv_nsec)
        size = Int(info.st_size)
        inode = UInt(info.st_ino)
    }
}
