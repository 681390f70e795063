import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension StaticFiles {
    /// The largest file served (8 MiB): every file is kept in memory from the start, so a large
    /// one would cost its size in resident memory and start-up time.
    public static let maximumFileSize = 8 << 20

    /// Relative paths of the regular files below `directory`, skipping dotfiles and symbolic links
    /// (a link could point outside the folder).
    ///
    /// - Throws: `fileTooLarge` for a file past ``maximumFileSize``, before anything is read.
    static func regularFiles(below directory: URL) throws -> [[String]] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
              isDirectory
        else {
            throw StaticFilesError.notADirectory(directory.path)
        }
        return try walk(directory, prefix: [])
    }

    private static func walk(_ directory: URL, prefix: [String]) throws -> [[String]] {
        var found: [[String]] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            switch attributes[.type] as? FileAttributeType {
            case .typeRegular?:
                let size = Self.size(ofFileAt: path)
                guard size <= maximumFileSize else { throw StaticFilesError.fileTooLarge(path, size: size) }
                found.append(prefix + [name])
            case .typeDirectory?:
                found += try walk(URL(fileURLWithPath: path), prefix: prefix + [name])
            default:
                continue
            }
        }
        return found
    }

    /// The size `stat` gives, which reads the same whether Foundation or only its essentials are
    /// loaded (`attributesOfItem`'s size is an `NSNumber` under the one, an integer under the other).
    private static func size(ofFileAt path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// Why the public folder could not be served.
public enum StaticFilesError: Error, CustomStringConvertible {
    case notADirectory(String)
    case fileTooLarge(String, size: Int)

    public var description: String {
        switch self {
        case .notADirectory(let path):
            "public folder not found: \(path)"
        case .fileTooLarge(let path, let size):
            "\(path) is \(size >> 20) MiB; the page's files are kept in memory and may be at most "
                + "\(StaticFiles.maximumFileSize >> 20) MiB each: move it out of the folder"
        }
    }
}
