/// A parsed route pattern such as `/api/panels/{id}`.
struct RoutePattern {
    private enum Segment {
        case literal(String)
        case parameter(String)
    }

    private let segments: [Segment]

    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with /: \(pattern)")
        segments = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.hasPrefix("{") && $0.hasSuffix("}") && $0.count > 2
                ? .parameter(String($0.dropFirst().dropLast()))
                : .literal(String($0))
        }
    }

    var segmentCount: Int { segments.count }

    /// The captured parameters when `pathSegments` (decoded) fit the pattern.
    func match(_ pathSegments: [String]) -> RouteParameters? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                values[name] = value
            }
        }
        return RouteParameters(values)
    }
}
