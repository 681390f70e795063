/// Where a value sits in the deck file, written like `panels[1].http.url`.
struct ConfigPath: CustomStringConvertible, Sendable {
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    static let root = ConfigPath()

    func appending(_ component: Component) -> ConfigPath {
        var path = self
        path.components.append(component)
        return path
    }

    var description: String {
        components.enumerated().map { position, component in
            switch component {
            case .key(let key): position == 0 ? key : ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }
}
