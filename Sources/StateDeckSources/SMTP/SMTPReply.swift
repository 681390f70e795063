/// One reply of a mail server: its code and its lines' texts, a multi-line reply's lines joined
/// by their code and a dash (`250-SIZE 33554432`) until one with a space (`250 HELP`).
struct SMTPReply: Equatable {
    let code: Int
    /// Each line without its code and separator.
    let texts: [String]

    /// The replies `lines` make, in order; nil when a line is not an SMTP reply's (three digits,
    /// then a space, a dash or nothing).
    static func replies(in lines: [String]) -> [SMTPReply]? {
        var replies: [SMTPReply] = []
        var texts: [String] = []
        for line in lines {
            guard let code = code(of: line) else { return nil }
            let separator = line.dropFirst(3).first
            texts.append(String(line.dropFirst(4)))
            if separator != "-" {
                replies.append(SMTPReply(code: code, texts: texts))
                texts = []
            }
        }
        return replies
    }

    /// The three-digit code a line starts with, nil for a line no SMTP server sends.
    static func code(of line: String) -> Int? {
        let digits = line.utf8.prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              line.utf8.count == 3 || [UInt8(ascii: " "), UInt8(ascii: "-")].contains(line.utf8.dropFirst(3).first) else {
            return nil
        }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// "421 mail.example.com Too many connections", as the server wrote it (its first line).
    var written: String { "\(code) \(texts.first ?? "")" }

    /// The extensions a reply to EHLO lists after its first line (the server's name): each
    /// keyword, uppercased, with its parameters.
    var extensions: [String: String] {
        texts.dropFirst().reduce(into: [:]) { extensions, text in
            let parts = text.split(separator: " ", maxSplits: 1)
            guard let keyword = parts.first else { return }
            extensions[keyword.uppercased()] = parts.count > 1 ? String(parts[1]) : ""
        }
    }
}
