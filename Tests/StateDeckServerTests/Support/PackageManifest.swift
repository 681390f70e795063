/// The targets `Package.swift` declares, each with what it depends on.
struct PackageManifest {
    struct Target {
        /// `target`, `executableTarget`, `systemLibrary`, `testTarget`, …: the call that declares it.
        let kind: String
        let name: String
        let path: String?
        /// By name, as the manifest writes them: targets, or products of this or another package.
        let dependencies: [String]
        /// `.product(name:package:)`: products of other packages.
        let products: [String]

        /// A test, or a helper of the tests (a target under `Tests/`).
        var isTestCode: Bool { kind == "testTarget" || path?.hasPrefix("Tests/") == true }
    }

    let targets: [Target]

    init(text: String) throws {
        let package = try ManifestExpression.package(in: text)
        guard case .array(let declarations)? = package["targets"] else {
            throw ManifestExpression.SyntaxError(line: nil, message: "Package(targets:) is not an array literal")
        }
        targets = try declarations.map(Self.target)
    }

    subscript(name: String) -> Target? {
        targets.first { $0.name == name }
    }

    private static func target(_ declaration: ManifestExpression) throws -> Target {
        guard case .call(let kind, _) = declaration, case .string(let name)? = declaration["name"] else {
            throw ManifestExpression.SyntaxError(line: nil, message: "a target that is not `.kind(name: \"…\", …)`")
        }
        var path: String?
        if case .string(let text)? = declaration["path"] { path = text }
        var dependencies: [String] = [], products: [String] = []
        if case .array(let items)? = declaration["dependencies"] {
            for item in items {
                switch (item, item["name"]) {
                case (.string(let dependency), _), (.call("target", _), .string(let dependency)?),
                     (.call("byName", _), .string(let dependency)?):
                    dependencies.append(dependency)
                case (.call("product", _), .string(let product)?):
                    products.append(product)
                default:
                    throw ManifestExpression.SyntaxError(line: nil, message: "a dependency of \(name) that is not read: \(item)")
                }
            }
        } else if declaration["dependencies"] != nil {
            throw ManifestExpression.SyntaxError(line: nil, message: "the dependencies of \(name) are not an array literal")
        }
        return Target(kind: kind, name: name, path: path, dependencies: dependencies, products: products)
    }
}
