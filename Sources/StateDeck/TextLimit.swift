/// How long a text an operator writes may be: in characters, as a person counts them, and in
/// UTF-8 bytes, since one character of combining marks can take hundreds of bytes (a 200-character
/// title of them is 60 KB). Every text an operator gives (through the API or in a deck file) is
/// kept, stored in the history and sent to every open page, so each has one.
///
/// | text | characters | bytes |
/// | --- | --- | --- |
/// | ``title``: an incident's title, a status page's title and its links' titles | 200 | 1,000 |
/// | ``message``: an incident update's message, a status page's description | 5,000 | 20,000 |
/// | ``reason``: a maintenance window's reason | 200 | 1,000 |
///
/// A real title or reason is one line, a real update a few paragraphs; the bytes leave room for
/// four bytes a character in any script with a few marks on top.
public struct TextLimit: Sendable, Equatable, CustomStringConvertible {
    public let characters: Int
    public let bytes: Int

    public static let title = TextLimit(characters: 200, bytes: 1_000)
    public static let message = TextLimit(characters: 5_000, bytes: 20_000)
    public static let reason = TextLimit(characters: 200, bytes: 1_000)

    /// Whether `text` is within both counts; the bytes are counted first, which bounds the cost
    /// of counting characters.
    public func allows(_ text: some StringProtocol) -> Bool {
        text.utf8.count <= bytes && text.count <= characters
    }

    /// "200 characters and 1,000 bytes".
    public var description: String {
        "\(Self.grouped(characters)) characters and \(Self.grouped(bytes)) bytes"
    }

    /// `20000` as "20,000".
    package static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return digits.enumerated().reduce(into: "") { text, digit in
            if digit.offset > 0, (digits.count - digit.offset) % 3 == 0 { text.append(",") }
            text.append(digit.element)
        }
    }
}
