import FoundationEssentials

/// Finds the `Public/` folder the page is served from.
public enum PublicDirectory {
    /// `override` when given; else the first `Public/` holding an `index.html` found walking up
    /// from the executable (`.build/release/statedeck` sits three levels below the repository),
    /// then in `share/statedeck` beside an installed binary, then in the working directory.
    public static func locate(override: String?) -> URL? {
        if let override {
            return URL(fileURLWithPath: override).standardizedFileURL
        }
        var candidates: [URL] = []
        var folder = executableURL().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(folder.appendingPathComponent("Public"))
            candidates.append(folder.appendingPathComponent("share/statedeck/Public"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("Public"))
        return candidates.first { candidate in
            FileManager.default.fileExists(atPath: candidate.appendingPathComponent("index.html").path)
        }?.standardizedFileURL
    }

    /// The running binary, through `/proc/self/exe` so a symbolic link to it is resolved.
    static func executableURL() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: LaunchArguments.all[0]).resolvingSymlinksInPath()
    }
}
