import Foundation

/// What tells one version of a file from another without reading it; nil fields for no file.
struct FileStamp: Equatable {
    let modified: Date?
    let size: UInt64?
    let inode: UInt64?

    init(path: String) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        modified = attributes?[.modificationDate] as? Date
        size = (attributes?[.size] as? NSNumber)?.uint64Value
        inode = (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
    }
}
