import FoundationEssentials

extension StaticFiles {
    /// Relative paths of the regular files below `directory`, skipping dotfiles and symbolic links
    /// (a link could point outside the folder).
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
                found.append(prefix + [name])
            case .typeDirectory?:
                found += try walk(URL(fileURLWithPath: path), prefix: prefix + [name])
            default:
                continue
            }
        }
        return found
    }
}

/// Why the public folder could not be served.
public enum StaticFilesError: Error, CustomStringConvertible {
    case notADirectory(String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "public folder not found: \(path)"
        }
    }
}
