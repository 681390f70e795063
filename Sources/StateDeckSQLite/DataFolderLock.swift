import Locking
import StateDeckHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive lock on a history folder (`flock` on its `lock` file), held while the process
/// runs: a second process with the same folder refuses to start instead of writing beside the
/// first. The kernel releases it when the process ends, however it ends; a store closed
/// releases it at once, so that the folder can be opened again while the process runs on.
final class DataFolderLock: Sendable {
    let path: String
    /// Nil once released.
    private let descriptor: Locked<Int32?>

    /// Makes `folder` if it is missing, then takes its lock.
    init(folder: String) throws(HistoryOpenError) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw .cannotCreateFolder(path: folder, reason: String(cString: strerror(errno)))
        }
        path = folder + "/lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .symbolicLink(path: path, target: FileIdentity.linkTarget(of: path)) }
            throw .cannotCreateLock(path: path, reason: String(cString: strerror(errno)))
        }
        if let reason = DataFolderFile.restrict(descriptor) {
            close(descriptor)
            throw .cannotCreateLock(path: path, reason: "its mode cannot be made 0600 (\(reason))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = max(0, read(descriptor, &buffer, buffer.count))
            close(descriptor)
            let pid = String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace
            throw .inUse(folder: folder, owner: pid.isEmpty ? "its process" : "pid \(pid)")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = Locked(descriptor)
    }

    deinit {
        release()
    }

    /// Lets the folder go; the lock means nothing after it.
    func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    /// Whether the locked file is still the folder's `lock`: deleted (or the folder with it), a
    /// second process could lock a new one.
    var isInPlace: Bool {
        guard let descriptor = descriptor.current, case .file(let identity) = FileIdentity.at(path) else { return false }
        return identity == FileIdentity(descriptor: descriptor)
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
