import Foundation

/// Writes the page's files into one Swift source, as `PageFile.embedded`:
/// `PageEmbedder PAGE_FOLDER OUTPUT FILE…`, each FILE a path below PAGE_FOLDER.
///
/// A file of UTF-8 text whose every line ends in a bare line feed is a raw string literal, which
/// the compiler takes quickly however long; any other (a carriage return, a control character,
/// bytes that are not UTF-8) is Base64, decoded as the server starts.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: PageEmbedder PAGE_FOLDER OUTPUT FILE…\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])

/// `text` as a raw string literal of as many `#` as it needs never to end early.
func rawLiteral(_ text: String) -> String {
    var longest = 0
    var run = 0
    for character in text.unicodeScalars {
        run = character == "#" ? run + 1 : 0
        longest = max(longest, run)
    }
    let hashes = String(repeating: "#", count: longest + 1)
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// `text` as a one-line string literal, every character outside printable ASCII escaped.
func stringLiteral(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { scalar in
        switch scalar {
        case "\\", "\"": "\\" + String(scalar)
        case " "..."~": String(scalar)
        default: "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }.joined() + "\""
}

/// Whether `text` reads back the same from a multi-line literal: lines end in a line feed alone,
/// and no control character but the tab and the line feed appears.
func isLiteralSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
        scalar == "\n" || scalar == "\t" || !(scalar.value < 0x20 || scalar.value == 0x7F)
    }
}

var source = """
    // Made by PageEmbedder from the page's folder at build time; not kept in the repository.

    extension PageFile {
        /// The page's files as they were when this binary was built.
        public static let embedded: [PageFile] = [

    """
for path in arguments.dropFirst(3) {
    let bytes = try Data(contentsOf: folder.appendingPathComponent(path))
    if let text = String(data: bytes, encoding: .utf8), isLiteralSafe(text) {
        source += "        PageFile(path: \(stringLiteral(path)), text: \(rawLiteral(text))),\n"
    } else {
        source += "        PageFile(path: \(stringLiteral(path)), base64: \"\(bytes.base64EncodedString())\"),\n"
    }
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
