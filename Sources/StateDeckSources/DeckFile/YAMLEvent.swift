import CYAML

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
