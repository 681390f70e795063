/// How the page draws a panel while it loads (the seed's loading modifier types).
public enum LoadingPresentation: Sendable, Hashable {
    /// A frosted overlay over the content, with the indicator in the middle.
    case material
    /// The indicator beside the content.
    case horizontal(
        position: HorizontalPosition = .trailing,
        contentOpacity: Double = 1,
        alignment: Alignment = .center,
        spacing: Double = 8
    )
    /// The indicator above or below the content.
    case vertical(
        position: VerticalPosition = .bottom,
        contentOpacity: Double = 1,
        alignment: Alignment = .leading,
        spacing: Double = 8
    )
    /// The indicator drawn over the content.
    case overCurrentContent(contentOpacity: Double = 1, alignment: Alignment = .trailing)
    /// The content as a skeleton (the panel's placeholder before the first load).
    case redacted
    /// A message instead of the content.
    case custom(message: String)

    /// The side of the content the indicator is drawn on.
    public enum HorizontalPosition: String, Sendable, Hashable, Codable {
        case leading, trailing
    }

    /// Above or below the content.
    public enum VerticalPosition: String, Sendable, Hashable, Codable {
        case top, bottom
    }

    /// Where the indicator sits; a stack uses the component across its axis.
    public enum Alignment: String, Sendable, Hashable, Codable {
        case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing
    }
}
