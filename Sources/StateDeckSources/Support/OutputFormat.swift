/// How a command's standard output or a file's content becomes the panel's info.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// JSON when the text is a JSON object or array, else text.
    case auto
    /// JSON, or the load fails with `invalidResponse`: an object is Info itself when it has only
    /// Info's keys, else its members are fields; an array's elements are items.
    case json
    /// The text as it is.
    case text
    /// One item per non-empty line: `id<TAB>title<TAB>subtitle`, or the whole line as id and title.
    case lines
}
