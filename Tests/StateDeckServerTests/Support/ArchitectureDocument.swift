import Foundation

/// What `docs/ARCHITECTURE.md` says of the targets: its opening picture of who calls whom (its
/// first fenced block, a line per target: `Name → Dependency, (Product)`, or the name alone) and
/// its table of modules (its second fenced block: a module's name begins each line that does not
/// begin with a space).
struct ArchitectureDocument {
    struct Arrows {
        let target: String
        let dependencies: [String]
    }

    let picture: [Arrows]
    let tableModules: [String]
    /// Lines of the picture that are not `Name → …`.
    let unreadLines: [String]

    init(markdown: String) {
        let blocks = Self.fencedBlocks(of: markdown)
        var picture: [Arrows] = [], unread: [String] = []
        for line in blocks.first ?? [] where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let sides = line.split(separator: "→", maxSplits: 1)
            let target = sides[0].trimmingCharacters(in: .whitespaces)
            guard !target.isEmpty, target.allSatisfy(Self.isNameCharacter) else {
                unread.append(line)
                continue
            }
            let dependencies = sides.count < 2 ? [] : sides[1].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            picture.append(Arrows(target: target, dependencies: dependencies))
        }
        self.picture = picture
        unreadLines = unread
        tableModules = (blocks.dropFirst().first ?? []).compactMap { line in
            guard let first = line.first, !first.isWhitespace else { return nil }
            return String(line.prefix { !$0.isWhitespace })
        }
    }

    /// Where the picture and the table disagree with `manifest`, one sentence each; none when
    /// they agree. The picture draws, for each target but the tests and their helpers, an arrow
    /// to each of its dependencies that it does not reach through another of them.
    func differences(from manifest: PackageManifest) -> [String] {
        let described = manifest.targets.filter { !$0.isTestCode }.map(\.name)
        var differences = unreadLines.map { "the picture has a line that is not `Name → Dependency, (Product)`: \($0)" }
        differences += Self.compare(names: picture.map(\.target), with: described, in: "the picture")
        differences += Self.compare(names: tableModules, with: described, in: "the table of modules")
        for arrows in picture {
            guard let target = manifest[arrows.target], !target.isTestCode else { continue }
            let drawn = arrows.dependencies
            let direct = Self.directDependencies(of: target, in: manifest)
            for dependency in drawn where !direct.contains(dependency) {
                differences.append("the picture says \(target.name) → \(dependency), but \(target.name) does not depend on "
                    + "\(dependency) in Package.swift")
            }
            for dependency in drawn where direct.contains(dependency) {
                if let through = direct.first(where: { $0 != dependency && Self.reach(from: $0, in: manifest).contains(dependency) }) {
                    differences.append("the picture says \(target.name) → \(dependency), which \(target.name) also reaches "
                        + "through \(through): drop the arrow")
                }
            }
            for dependency in direct where !drawn.contains(dependency) {
                guard !direct.contains(where: { $0 != dependency && Self.reach(from: $0, in: manifest).contains(dependency) }) else {
                    continue
                }
                differences.append("the picture lacks \(target.name) → \(dependency): Package.swift's \(target.name) depends on "
                    + "\(dependency), and on nothing that reaches it")
            }
        }
        return differences
    }

    /// A target's dependencies as the picture writes them: products in parentheses.
    private static func directDependencies(of target: PackageManifest.Target, in manifest: PackageManifest) -> [String] {
        target.dependencies.map { manifest[$0] == nil ? "(\($0))" : $0 } + target.products.map { "(\($0))" }
    }

    /// Every target and product `name` leads to, itself included.
    private static func reach(from name: String, in manifest: PackageManifest) -> Set<String> {
        var reached: Set<String> = [name], todo = [name]
        while let next = todo.popLast() {
            guard let target = manifest[next] else { continue }
            for dependency in directDependencies(of: target, in: manifest) where reached.insert(dependency).inserted {
                todo.append(dependency)
            }
        }
        return reached
    }

    private static func compare(names: [String], with targets: [String], in place: String) -> [String] {
        var differences: [String] = []
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            differences.append("\(place) names \(name) twice")
        }
        for target in targets where !seen.contains(target) {
            differences.append("\(place) lacks \(target), a target of Package.swift")
        }
        for name in seen.sorted() where !targets.contains(name) {
            differences.append("\(place) names \(name), which is not a target of Package.swift (tests and their helpers aside)")
        }
        return differences
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_"
    }

    /// The lines of each fenced block (between lines that begin with three backticks), in order.
    private static func fencedBlocks(of markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }
}
