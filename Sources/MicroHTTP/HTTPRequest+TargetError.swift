extension HTTPRequest {
    /// Why a request target was refused; `description` is the 400 answer's message.
    public enum TargetError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Neither `/…` nor `http(s)://authority…` (authority-form, `*`, a relative path).
        case notOriginForm
        /// A `%` not followed by two hex digits.
        case malformedPercentEncoding
        /// The raw target or a decoded part is not valid UTF-8.
        case notUTF8

        public var description: String {
            switch self {
            case .notOriginForm: "the request target must start with / (or be an absolute http URL)"
            case .malformedPercentEncoding: "the request target has a malformed percent-encoding"
            case .notUTF8: "the request target does not decode to UTF-8"
            }
        }
    }
}
