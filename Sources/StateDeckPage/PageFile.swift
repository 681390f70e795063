import FoundationEssentials

/// One file of the page, compiled into the binary from `Public/` at build time (the `EmbedPage`
/// plugin makes ``embedded``), so that the binary alone serves the whole page.
public struct PageFile: Sendable {
    /// Its path below the page's folder, `/` between folders.
    public let path: String
    private let content: Content

    private enum Content: Sendable {
        case text(String)
        case base64(String)
    }

    init(path: String, text: String) {
        self.path = path
        content = .text(text)
    }

    init(path: String, base64: String) {
        self.path = path
        content = .base64(base64)
    }

    /// The file's bytes, as they were in the folder.
    public var bytes: [UInt8] {
        switch content {
        case .text(let text): Array(text.utf8)
        // Written by the build from the file's bytes: it decodes.
        case .base64(let encoded): Data(base64Encoded: encoded).map { [UInt8]($0) } ?? []
        }
    }
}
