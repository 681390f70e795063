/// A parsed route pattern such as `/api/panels/{id}` or `/badge/{panel}.svg`.
public struct RoutePattern: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        /// `{name}`, or `{name}suffix` such as `{panel}.svg`: a non-empty value, then the suffix.
        case parameter(String, suffix: String)
    }

    private let segments: [Segment]

    public init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with /: \(pattern)")
        segments = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix("{"), let close = segment.firstIndex(of: "}"),
                  segment.index(after: segment.startIndex) < close
            else { return .literal(String(segment)) }
            return .parameter(String(segment[segment.index(after: segment.startIndex)..<close]),
                              suffix: String(segment[segment.index(after: close)...]))
        }
    }

    var segmentCount: Int { segments.count }

    /// The captured parameters when `pathSegments` (decoded) fit the pattern.
    public func match(_ pathSegments: [String]) -> RouteParameters? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name, let suffix):
                guard value.utf8.count > suffix.utf8.count, value.utf8.reversed().starts(with: suffix.utf8.reversed())
                else { return nil }
                values[name] = String(decoding: value.utf8.dropLast(suffix.utf8.count), as: UTF8.self)
            }
        }
        return RouteParameters(values)
    }
}
