import Foundation
import PackagePlugin

/// Compiles the page's files (`Public/`) into the target it is applied to: the `PageEmbedder`
/// tool writes them into one Swift source, made again whenever one of them changes.
///
/// The files are those `StaticFiles` serves from a folder: regular files only, neither dotfiles
/// nor symbolic links, nor anything below a dot folder.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let page = context.package.directoryURL.appending(path: "Public")
        let files = try Self.pageFiles(below: page)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
        return [.buildCommand(
            displayName: "Embedding the page's \(files.count) files",
            executable: try context.tool(named: "PageEmbedder").url,
            arguments: [page.path(percentEncoded: false), output.path(percentEncoded: false)]
                + files,
            inputFiles: files.map { page.appending(path: $0) },
            outputFiles: [output])]
    }

    /// Every regular file below `folder`, by its path from there, in order.
    static func pageFiles(below folder: URL) throws -> [String] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys,
                                                        options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        let prefix = folder.standardizedFileURL.path(percentEncoded: false)
        for case let url as URL in walk {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true, values.isSymbolicLink != true else { continue }
            let path = url.standardizedFileURL.path(percentEncoded: false)
            paths.append(String(path.dropFirst(prefix.count).drop { $0 == "/" }))
        }
        return paths.sorted()
    }
}
