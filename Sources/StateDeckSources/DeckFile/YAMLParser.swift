import CYAML

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
        // Set rather than detected, as Yams did, so that a byte order mark takes a column as it did.
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
