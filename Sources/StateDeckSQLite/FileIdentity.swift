#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file as the kernel knows it, whatever its name: its device and inode.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// What a name in a folder is now.
    enum Lookup: Equatable, Sendable {
        case file(FileIdentity)
        case missing
        /// It cannot be told (the folder cannot be searched).
        case unknown
    }

    /// What `path` names, a link itself rather than where it points (`lstat`).
    static func at(_ path: String) -> Lookup {
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT ? .missing : .unknown }
        return .file(FileIdentity(status))
    }

    /// The file open as `descriptor`.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Where the symbolic link at `path` points, from `/` (a relative target starts in the
    /// link's folder).
    static func linkTarget(of path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "a target that cannot be read (\(String(cString: strerror(errno))))" }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return target }
        return path[..<slash] + "/" + target
    }
}
