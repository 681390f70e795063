/// A flat badge in the shields.io style: the label on grey, the message on its colour, 20 px
/// high, each box as wide as its text and 5 px either side.
struct BadgeSVG: Sendable, Equatable {
    /// The colours a message is drawn on, shields.io's.
    enum Colour: String, Sendable {
        case brightGreen = "#4c1"
        case green = "#97ca00"
        case yellow = "#dfb317"
        case orange = "#fe7d37"
        case red = "#e05d44"
        case blue = "#007ec6"
        case grey = "#9f9f9f"
    }

    let label: String
    let message: String
    let colour: Colour

    /// A badge of `label` and `message`, each `drawable`.
    init(label: String, message: String, colour: Colour) {
        self.label = Self.drawable(label)
        self.message = Self.drawable(message)
        self.colour = colour
    }

    /// The SVG document, its title ("label: message") read by screen readers and shown on hover.
    var document: String {
        let labelWidth = BadgeTextWidth.of(label) + 10
        let messageWidth = BadgeTextWidth.of(message) + 10
        let width = labelWidth + messageWidth
        let title = Self.escaped("\(label): \(message)")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="20" role="img" aria-label="\(title)">\
            <title>\(title)</title>\
            <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>\
            <stop offset="1" stop-opacity=".1"/></linearGradient>\
            <clipPath id="r"><rect width="\(width)" height="20" rx="3" fill="#fff"/></clipPath>\
            <g clip-path="url(#r)"><rect width="\(labelWidth)" height="20" fill="#555"/>\
            <rect x="\(labelWidth)" width="\(messageWidth)" height="20" fill="\(colour.rawValue)"/>\
            <rect width="\(width)" height="20" fill="url(#s)"/></g>\
            <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" \
            text-rendering="geometricPrecision" font-size="110">\
            \(Self.text(label, from: 0, width: labelWidth))\(Self.text(message, from: labelWidth, width: messageWidth))\
            </g></svg>

            """
    }

    /// `text` centred in the box starting at `x`, over its shadow, at ten times the size and
    /// scaled down, as shields.io draws it for finer placement.
    private static func text(_ text: String, from x: Int, width: Int) -> String {
        let centre = x * 10 + width * 5
        let length = (width - 10) * 10
        let escaped = escaped(text)
        return """
            <text aria-hidden="true" x="\(centre)" y="150" fill="#010101" fill-opacity=".3" \
            transform="scale(.1)" textLength="\(length)">\(escaped)</text>\
            <text x="\(centre)" y="140" transform="scale(.1)" textLength="\(length)">\(escaped)</text>
            """
    }

    /// `text` safe in XML text and in a quoted attribute. By scalar, not by character: `&`
    /// followed by a combining mark is one character, and must still be escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` with every control character (C0, DEL, C1) and noncharacter (U+FFFE, U+FFFF…),
    /// which XML forbids or an SVG text drops, as a space.
    private static func drawable(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isControl = scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
            scalars.append(isControl || scalar.properties.isNoncharacterCodePoint ? " " : scalar)
        }
        return String(scalars)
    }
}
