/// The `{name}` values a route captured, percent-decoded.
public struct RouteParameters: Sendable, Equatable {
    private let values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> String? {
        values[name]
    }
}
