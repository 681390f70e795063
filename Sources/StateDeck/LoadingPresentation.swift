/// How the page draws a panel while it loads: a loading modifier wrapped around the panel's content.
///
/// Every option is typed to the values the page draws for that presentation, so nothing the
/// server sends is redrawn some other way: an indicator beside the content aligns along the
/// content's height (top, center, bottom), one above or below it along its width (leading,
/// center, trailing), and one over the content at any of nine places.
public enum LoadingPresentation: Sendable, Hashable {
    /// A frosted overlay over the content, with the indicator in the middle.
    case material
    /// The indicator beside the content.
    case horizontal(
        position: HorizontalPosition = .trailing,
        contentOpacity: Double = 1,
        alignment: VerticalAlignment = .center,
        spacing: Double = 8
    )
    /// The indicator above or below the content.
    case vertical(
        position: VerticalPosition = .bottom,
        contentOpacity: Double = 1,
        alignment: HorizontalAlignment = .leading,
        spacing: Double = 8
    )
    /// The indicator drawn over the content.
    case overCurrentContent(contentOpacity: Double = 1, alignment: Alignment = .trailing)
    /// The content as a skeleton (the panel's placeholder before the first load).
    case redacted
    /// A message instead of the content.
    case custom(message: String)

    /// Every presentation type with its default options, in the order the page documents them.
    public static let typeDefaults: [LoadingPresentation] = [
        .material, .horizontal(), .vertical(), .overCurrentContent(), .redacted, .custom(message: "Loading…"),
    ]

    /// The side of the content the indicator is drawn on.
    public enum HorizontalPosition: String, Sendable, Hashable, Codable, CaseIterable {
        case leading, trailing
    }

    /// Above or below the content.
    public enum VerticalPosition: String, Sendable, Hashable, Codable, CaseIterable {
        case top, bottom
    }

    /// Where an indicator beside the content sits along the content's height.
    public enum VerticalAlignment: String, Sendable, Hashable, Codable, CaseIterable {
        case top, center, bottom
    }

    /// Where an indicator above or below the content sits along the content's width.
    public enum HorizontalAlignment: String, Sendable, Hashable, Codable, CaseIterable {
        case leading, center, trailing
    }

    /// Where an indicator over the content sits.
    public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
        case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing
    }
}
