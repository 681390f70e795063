import Foundation

/// The repository's `Makefile` as far as the docs tests need it: its variables, its rules, and the
/// Debian packages a goal installs (`scripts/ensure-packages.sh` in its recipes, or in the
/// repository's scripts they run, through every prerequisite).
struct Makefile {
    struct Rule {
        var prerequisites: [String] = []
        var recipe: [String] = []
    }

    /// The installer every goal and script calls with the packages it needs.
    static let installer = "scripts/ensure-packages.sh"

    private(set) var variables: [String: String] = [:]
    private(set) var rules: [String: Rule] = [:]
    /// The text of a repository file by its path, nil when there is none: included makefiles and
    /// the scripts recipes run.
    private let file: (String) -> String?

    init(text: String, file: @escaping (String) -> String?) {
        self.file = file
        read(text)
    }

    private mutating func read(_ text: String) {
        // A line ending in a backslash goes on with the next.
        let lines = text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n", omittingEmptySubsequences: false)
        var current: [String] = []
        for line in lines.map(String.init) {
            if line.hasPrefix("\t") {
                for target in current { rules[target, default: Rule()].recipe.append(line.trimmingCharacters(in: .whitespaces)) }
                continue
            }
            let code = line.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if code.isEmpty { continue }
            if code.hasPrefix("include ") {
                current = []
                for path in code.dropFirst("include ".count).split(separator: " ") {
                    if let included = file(expand(String(path))) { read(included) }
                }
            } else if let assignment = code.firstMatch(of: /^([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|:=|\+=|=)\s*(.*)$/) {
                let (name, operation, value) = (String(assignment.1), assignment.2, String(assignment.3))
                switch operation {
                case "?=": if variables[name] == nil { variables[name] = value }
                case "+=": variables[name] = [variables[name], value].compactMap { $0 }.joined(separator: " ")
                default: variables[name] = value
                }
            } else if let colon = code.firstIndex(of: ":") {
                current = code[..<colon].split(separator: " ").map(String.init).filter { !$0.hasPrefix(".") }
                let prerequisites = code[code.index(after: colon)...].split(separator: " ").map(String.init)
                for target in current { rules[target, default: Rule()].prerequisites += prerequisites }
            }
        }
    }

    /// `text` with every `$(NAME)` replaced by the variable's value, itself expanded; an unknown
    /// name becomes nothing, as in make.
    func expand(_ text: String) -> String {
        var result = text
        while let reference = result.firstMatch(of: /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/) {
            result.replaceSubrange(reference.range, with: variables[String(reference.1)] ?? "")
        }
        return result
    }

    /// The packages `make goal` installs, in the order it names them; a word after the installer
    /// that make leaves unknown (a shell variable) is returned as it is, so it shows.
    func debianPackages(installedBy goal: String) -> [String] {
        var packages: [String] = [], visited: Set<String> = [], todo = [goal]
        while !todo.isEmpty {
            let next = todo.removeFirst()
            guard visited.insert(next).inserted, let rule = rules[next] else { continue }
            todo += rule.prerequisites.map(expand).flatMap { $0.split(separator: " ").map(String.init) }
            for line in rule.recipe.map(expand) {
                packages += Self.installed(by: line)
                for word in line.split(separator: " ").map(String.init) where Self.isScript(word) {
                    if let script = file(word) {
                        packages += script.split(separator: "\n").flatMap { Self.installed(by: String($0)) }
                    }
                }
            }
        }
        var seen: Set<String> = []
        return packages.filter { seen.insert($0).inserted }
    }

    /// A word of a recipe that names a script of the repository (not the installer itself).
    private static func isScript(_ word: String) -> Bool {
        word != installer && word.firstMatch(of: /^[A-Za-z][A-Za-z0-9_\/-]*(\.sh|\.py)$|^scripts\/[A-Za-z0-9_.-]+$/) != nil
    }

    /// The words after the installer in one shell line, up to the end of its command.
    private static func installed(by line: String) -> [String] {
        let code = line.prefix { $0 != "#" }
        guard let call = code.range(of: installer) else { return [] }
        return Array(code[call.upperBound...].split(separator: " ").map(String.init)
            .prefix { !["&&", "||", ";", "|", ">", "2>&1"].contains($0) && !$0.hasPrefix(">") })
    }
}
