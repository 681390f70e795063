import CYAML

// MARK: - The parser

/// libyaml's parser (`yaml_parser_t`) over a copy of a text's UTF-8, both freed with it.
struct YAMLParser: ~Copyable {
    /// Allocated so that it never moves: libyaml keeps pointers to the parser in the parser.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>

    /// The one error for which libyaml gives no problem text, and the only one of initialising.
    private static let outOfMemory = YAMLError.syntax(problem: "out of memory", mark: nil, context: nil)

    /// A parser of `text` (`yaml_parser_initialize`, `yaml_parser_set_input_string`).
    init(parsing text: String) throws(YAMLError) {
        // One byte more than the text, so that an empty text too has an address to give libyaml.
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count + 1)
        let length = input.initialize(fromContentsOf: text.utf8)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            input.deallocate()
            throw Self.outOfMemory
        }
        // Set rather than detected, as Yams did; a deck file's byte order mark is dropped before.
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, length)
        self.parser = parser
        self.input = input
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event (`yaml_parser_parse`); libyaml's own is freed (`yaml_event_delete`).
    func next() throws(YAMLError) -> YAMLEvent {
        var event = yaml_event_t()
        defer { yaml_event_delete(&event) }
        guard yaml_parser_parse(parser, &event) == 1 else { throw error() }
        return YAMLEvent(event)
    }

    /// What libyaml found wrong, from the parser's error fields.
    private func error() -> YAMLError {
        let failed = parser.pointee
        guard let problem = failed.problem.map({ String(cString: $0) }) else { return Self.outOfMemory }
        guard failed.error != YAML_READER_ERROR else {
            // The offset is within the text, so the extra byte after it is never read.
            let mark = YAMLMark(offset: failed.problem_offset, in: UnsafeBufferPointer(input))
            return .syntax(problem: problem, mark: mark, context: nil)
        }
        let context = failed.context.map {
            YAMLError.Context(text: String(cString: $0), mark: YAMLMark(failed.context_mark))
        }
        return .syntax(problem: problem, mark: YAMLMark(failed.problem_mark), context: context)
    }
}

/// One of libyaml's parsing events, copied out of its `yaml_event_t`.
enum YAMLEvent {
    case streamStart
    case streamEnd
    case documentStart(mark: YAMLMark)
    case documentEnd
    case alias(anchor: String, mark: YAMLMark)
    /// `isPlain`: see `YAMLNode.Kind.scalar`.
    case scalar(text: String, isPlain: Bool, anchor: String?, mark: YAMLMark)
    /// The start of a sequence or mapping.
    case collectionStart(isMapping: Bool, anchor: String?, mark: YAMLMark)
    /// The end of the innermost sequence or mapping (libyaml nests them properly).
    case collectionEnd
}

extension YAMLEvent {
    /// A copy of `event`, which stays the caller's to free with `yaml_event_delete`.
    init(_ event: yaml_event_t) {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            self = .streamStart
        case YAML_DOCUMENT_START_EVENT:
            self = .documentStart(mark: mark)
        case YAML_DOCUMENT_END_EVENT:
            self = .documentEnd
        case YAML_ALIAS_EVENT:
            self = .alias(anchor: String(cString: event.data.alias.anchor), mark: mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            self = .scalar(
                // The length, not a terminating NUL: the text may hold "\0" escapes.
                text: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
                isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil,
                anchor: anchorName(scalar.anchor),
                mark: mark
            )
        case YAML_SEQUENCE_START_EVENT:
            self = .collectionStart(isMapping: false, anchor: anchorName(event.data.sequence_start.anchor), mark: mark)
        case YAML_MAPPING_START_EVENT:
            self = .collectionStart(isMapping: true, anchor: anchorName(event.data.mapping_start.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            self = .collectionEnd
        default:
            // YAML_STREAM_END_EVENT, or YAML_NO_EVENT, which libyaml gives after the stream's end.
            self = .streamEnd
        }
    }
}

private func anchorName(_ name: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    name.map { String(cString: $0) }
}

/// Where a YAML node or problem starts, counted from 1 (columns in characters), as Yams counted.
public struct YAMLMark: Hashable, Comparable, Sendable {
    public let line: Int
    public let column: Int

    public static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

extension YAMLMark {
    /// libyaml's `yaml_mark_t`, which counts from 0.
    init(_ mark: yaml_mark_t) {
        self.init(line: mark.line + 1, column: mark.column + 1)
    }

    /// The mark of byte `offset` of UTF-8 `text`: libyaml locates reader errors (such as a control
    /// character) by offset only.
    init(offset: Int, in text: UnsafeBufferPointer<UInt8>) {
        let before = text.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        self.init(
            line: before.count { $0 == UInt8(ascii: "\n") } + 1,
            // Every byte but a UTF-8 continuation byte starts a character.
            column: before[lineStart...].count { $0 & 0xC0 != 0x80 } + 1
        )
    }
}

/// Why a YAML text has no node tree.
public enum YAMLError: Error, Equatable {
    /// What was being parsed when a problem was found, as libyaml names it.
    public struct Context: Equatable, Sendable {
        public let text: String
        public let mark: YAMLMark
    }

    /// libyaml's problem at `mark` (nil when libyaml ran out of memory), or the composer's (an
    /// undefined alias, a second document, too deep a nesting).
    case syntax(problem: String, mark: YAMLMark?, context: Context?)
    /// Every key given again in a mapping of the document, in the document's order.
    case duplicateKeys([DuplicateKey])

    /// A key given again in one mapping: where it appears again, and where it first appeared.
    public struct DuplicateKey: Equatable, Sendable {
        public let key: String
        public let mark: YAMLMark
        public let first: YAMLMark
    }
}

// MARK: - Nodes

/// A node of a YAML document as composed from libyaml's events, with where it starts.
public struct YAMLNode: Sendable {
    public enum Kind: Sendable {
        /// `isPlain`: written without quotes, block indicator or tag, so that its text may stand
        /// for null, a bool or a number.
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        /// In the file's order; a key appears once.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    public let kind: Kind
    public let mark: YAMLMark

    /// In a mapping, the value of the scalar key `key`.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind else { return nil }
        return pairs.first { pair in
            if case .scalar(key, _) = pair.key.kind { return true }
            return false
        }?.value
    }
}

/// What a plain scalar stands for, as Yams read it; quoted, block and tagged scalars are text.
extension YAMLNode {
    /// `~`, `null`, `Null`, `NULL` or nothing at all.
    public var isNull: Bool {
        guard let text = plainText else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// true or false, and YAML 1.1's yes, no, on and off, in any case.
    public var bool: Bool? {
        switch plainText?.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// An integer (also `0x1f`, `0o17`, `0b101`, and `017` in octal) or a floating-point number
    /// (also `.inf`, `-.inf`, `.nan`); underscores are ignored. YAML 1.1's base 60 (`1:30`) is text.
    public var number: Double? {
        guard let text = plainText else { return nil }
        let digits = text.filter { $0 != "_" }
        return Self.integer(digits).map(Double.init) ?? Self.floatingPoint(digits)
    }

    private var plainText: String? {
        guard case .scalar(let text, isPlain: true) = kind else { return nil }
        return text
    }

    private static func integer(_ text: String) -> Int? {
        let isSigned = text.hasPrefix("-") || text.hasPrefix("+")
        let unsigned = text.dropFirst(isSigned ? 1 : 0)
        let sign = text.hasPrefix("-") ? "-" : ""
        // A 0 prefix means octal; 0 alone is zero.
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)]
        where unsigned.hasPrefix(prefix) && unsigned != "0" {
            return Int(sign + unsigned.dropFirst(prefix.count), radix: radix)
        }
        return Int(text)
    }

    private static func floatingPoint(_ text: String) -> Double? {
        switch text.lowercased() {
        case ".inf", "+.inf": .infinity
        case "-.inf": -.infinity
        case ".nan": .nan
        default: Double(text)
        }
    }
}
