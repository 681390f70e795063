/// `Package.swift` read as the few shapes it is written in: calls with labelled arguments
/// (`.target(name: "X", dependencies: [...])`), arrays, string literals and names.
///
/// Read as text rather than by SwiftPM (`swift package dump-package`): a test run holds the
/// build folder, and a second SwiftPM inside it would wait for it. Anything the manifest may be
/// but this does not read (a variable for the targets, `+`, a multi-line or raw string, code
/// after `Package(...)`) is an error naming its line: the docs tests then fail, rather than
/// compare the docs with a misread manifest.
indirect enum ManifestExpression {
    case string(String)
    case array([ManifestExpression])
    /// `Package(...)`, `.target(...)`: the name without its dot.
    case call(String, arguments: [Argument])
    /// `.v15`, `sharedSettings`: a name that is not called.
    case name(String)

    struct Argument {
        let label: String?
        let value: ManifestExpression
    }

    struct SyntaxError: Error, CustomStringConvertible {
        /// Nil for what is wrong with a whole target.
        let line: Int?
        let message: String

        var description: String { "Package.swift\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// The `Package(...)` call of `manifest`: what comes before it (imports, `let package =`) is
    /// skipped; nothing may come after it.
    static func package(in manifest: String) throws(SyntaxError) -> ManifestExpression {
        var reader = try Reader(tokens: Token.split(manifest))
        try reader.skip(toCallOf: "Package")
        let package = try reader.expression()
        if let (_, line) = reader.next { throw SyntaxError(line: line, message: "code after Package(...) is not read") }
        return package
    }

    /// The argument labelled `label`, when this is a call that has one.
    subscript(label: String) -> ManifestExpression? {
        guard case .call(_, let arguments) = self else { return nil }
        return arguments.first { $0.label == label }?.value
    }
}

private enum Token: Equatable {
    case name(String)
    case string(String)
    case symbol(Character)

    /// The tokens of `text` with their lines, comments left out.
    static func split(_ text: String) throws(ManifestExpression.SyntaxError) -> [(Token, Int)] {
        let characters = Array(text)
        var tokens: [(Token, Int)] = []
        var line = 1
        var index = 0
        func peek(_ offset: Int) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                line += 1
                index += 1
            } else if character.isWhitespace {
                index += 1
            } else if character == "/", peek(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", peek(1) == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && peek(1) == "/") {
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 2
            } else if character == "\"" {
                if peek(1) == "\"", peek(2) == "\"" {
                    throw .init(line: line, message: "a multi-line string is not read")
                }
                var value = ""
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\n" { throw .init(line: line, message: "a string does not end on its line") }
                    if characters[index] == "\\" {
                        index += 1
                        if peek(0) == "(" { throw .init(line: line, message: "string interpolation is not read") }
                    }
                    if index < characters.count { value.append(characters[index]) }
                    index += 1
                }
                index += 1
                tokens.append((.string(value), line))
            } else if character.isLetter || character.isNumber || character == "_" {
                var name = ""
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                    name.append(characters[index])
                    index += 1
                }
                tokens.append((.name(name), line))
            } else if character == "#" {
                throw .init(line: line, message: "`#` (a raw string or a directive) is not read")
            } else {
                tokens.append((.symbol(character), line))
                index += 1
            }
        }
        return tokens
    }
}

private struct Reader {
    let tokens: [(Token, Int)]
    var position = 0

    init(tokens: [(Token, Int)]) {
        self.tokens = tokens
    }

    var next: (Token, Int)? { position < tokens.count ? tokens[position] : nil }

    private var line: Int { next?.1 ?? tokens.last?.1 ?? 1 }

    private func fail(_ message: String) -> ManifestExpression.SyntaxError {
        ManifestExpression.SyntaxError(line: line, message: message)
    }

    mutating func skip(toCallOf name: String) throws(ManifestExpression.SyntaxError) {
        while position + 1 < tokens.count {
            if tokens[position].0 == .name(name), tokens[position + 1].0 == .symbol("(") { return }
            position += 1
        }
        throw fail("no \(name)(...) call")
    }

    private mutating func take(_ symbol: Character) -> Bool {
        guard next?.0 == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: Character) throws(ManifestExpression.SyntaxError) {
        guard take(symbol) else { throw fail("expected `\(symbol)`") }
    }

    mutating func expression() throws(ManifestExpression.SyntaxError) -> ManifestExpression {
        let value: ManifestExpression
        switch next?.0 {
        case .string(let text):
            position += 1
            value = .string(text)
        case .symbol("["):
            position += 1
            var items: [ManifestExpression] = []
            while !take("]") {
                items.append(try expression())
                if !take(",") {
                    try expect("]")
                    break
                }
            }
            value = .array(items)
        case .symbol("."), .name:
            value = try member()
        default:
            throw fail("expected a string, an array, a name or a call")
        }
        guard [.symbol(","), .symbol(")"), .symbol("]"), nil].contains(next?.0) else {
            throw fail("only a string, an array, a name or a call is read here, not an operator or a member of it")
        }
        return value
    }

    /// `.name`, `name`, `A.b` (one name, `A.b`), each called when `(` follows.
    private mutating func member() throws(ManifestExpression.SyntaxError) -> ManifestExpression {
        _ = take(".")
        var parts: [String] = []
        repeat {
            guard case .name(let part)? = next?.0 else { throw fail("expected a name") }
            position += 1
            parts.append(part)
        } while take(".")
        let name = parts.joined(separator: ".")
        guard take("(") else { return .name(name) }
        var arguments: [ManifestExpression.Argument] = []
        while !take(")") {
            var label: String?
            if case .name(let word)? = next?.0, position + 1 < tokens.count, tokens[position + 1].0 == .symbol(":") {
                label = word
                position += 2
            }
            arguments.append(ManifestExpression.Argument(label: label, value: try expression()))
            if !take(",") {
                try expect(")")
                break
            }
        }
        return .call(name, arguments: arguments)
    }
}
