import StateDeckServer
import YAML

/// The access file (`--access FILE`): who may reach the dashboard, one entry a caller, each a
/// name, a role and the SHA-256 of their token, never the token:
///
/// ```yaml
/// - {name: "alice", role: "designer", hash: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
/// - name: ci
///   role: viewer
///   hash: sha256:…
/// ```
///
/// `statedeck token add` writes the entries, one line each. Like a token file, only its owner
/// may read or write it (mode 0600).
public enum AccessFile {
    /// The entries of the file at `path`: none for an empty file.
    ///
    /// - Throws: the file cannot be read or others may read it, or every problem of its entries,
    ///   each with its line.
    public static func load(path: String) throws(AccessFileError) -> AccessList {
        try parse(read(path), file: path)
    }

    /// The text of the file at `path`, a ``PrivateFile``.
    static func read(_ path: String) throws(AccessFileError) -> String {
        do {
            return try PrivateFile.text(at: path)
        } catch {
            let message = switch error {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .notAFile: "is not a regular file (a folder, named pipe or device)"
            case .tooOpen(let mode): "may be read by others (mode \(String(mode, radix: 8))): run chmod 600 \(path)"
            case .notUTF8: "is not UTF-8 text"
            }
            throw AccessFileError(file: path, problems: [(nil, message)])
        }
    }

    /// The entries of `text`, the file `file` holds.
    static func parse(_ text: String, file: String) throws(AccessFileError) -> AccessList {
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch {
            throw AccessFileError(file: file, problems: describe(error))
        }
        guard let root else { return AccessList([]) }
        guard case .sequence(let items) = root.kind else {
            throw AccessFileError(file: file, problems: [(root.mark.line, "must be a list of entries, each - {name, role, hash}")])
        }
        var reader = EntryReader()
        for item in items { reader.read(item) }
        guard reader.problems.isEmpty else { throw AccessFileError(file: file, problems: reader.problems) }
        return AccessList(reader.entries.map(\.entry))
    }

    private static func describe(_ error: YAMLError) -> [(line: Int?, message: String)] {
        switch error {
        case .syntax(let problem, let mark, let context):
            let within = context.map { " (\($0.text) on line \($0.mark.line))" } ?? ""
            return [(mark?.line, "YAML syntax: \(problem)\(within)")]
        case .duplicateKeys(let repeats):
            return repeats.map { ($0.mark.line, "the key \($0.key) is given again (first on line \($0.first.line))") }
        }
    }

    /// The line `statedeck token add` appends for `name`, whose token has `digest`.
    public static func line(name: String, role: AccessRole, digest: TokenDigest) -> String {
        #"- {name: "\#(name)", role: \#(role.rawValue), hash: "\#(digest)"}"# + "\n"
    }
}

/// Reads entries one by one, keeping each problem with its line and the names and digests seen.
private struct EntryReader {
    var entries: [(entry: AccessList.Entry, line: Int)] = []
    var problems: [(line: Int?, message: String)] = []

    mutating func read(_ item: YAMLNode) {
        let line = item.mark.line
        guard case .mapping(let pairs) = item.kind else {
            problems.append((line, "each entry is a mapping: - {name: …, role: …, hash: …}"))
            return
        }
        for pair in pairs {
            guard case .scalar(let key, _) = pair.key.kind, ["name", "role", "hash"].contains(key) else {
                problems.append((pair.key.mark.line, "an entry has only the keys name, role and hash"))
                return
            }
        }
        guard let name = text(item, "name", line), let roleText = text(item, "role", line),
              let hash = text(item, "hash", line) else { return }
        guard AccessList.isValidName(name) else {
            problems.append((line, "name \(name): use 1 to 64 letters, digits, '.', '_', '-' or '@'"))
            return
        }
        guard let role = AccessRole(rawValue: roleText) else {
            let roles = AccessRole.allCases.map(\.rawValue).joined(separator: ", ")
            problems.append((line, "role \(roleText) is not a role: one of \(roles)"))
            return
        }
        guard let digest = TokenDigest(parsing: hash) else {
            problems.append((line, "hash must be sha256: and the 64 hex digits of the token's SHA-256, never the token "
                + "itself: add entries with statedeck token add"))
            return
        }
        if let first = entries.first(where: { $0.entry.name == name }) {
            problems.append((line, "the name \(name) is given again (first on line \(first.line))"))
        } else if let first = entries.first(where: { $0.entry.digest.description == digest.description }) {
            problems.append((line, "the same token as \(first.entry.name) on line \(first.line): give each caller a token of their own"))
        } else {
            entries.append((AccessList.Entry(name: name, role: role, digest: digest), line))
        }
    }

    /// The text of `key` in `item`, or nil with the problem recorded.
    private mutating func text(_ item: YAMLNode, _ key: String, _ line: Int) -> String? {
        guard let node = item[key] else {
            problems.append((line, "an entry needs a \(key)"))
            return nil
        }
        guard case .scalar(let text, _) = node.kind else {
            problems.append((node.mark.line, "\(key) must be text"))
            return nil
        }
        return text
    }
}

/// Why an access file cannot be used: each problem with its line when it has one.
public struct AccessFileError: Error, CustomStringConvertible {
    public let file: String
    public let problems: [(line: Int?, message: String)]

    /// One problem a line, `access.yaml:3: role admin is not a role: …`.
    public var description: String {
        problems.map { problem in
            (problem.line.map { "\(file):\($0)" } ?? file) + ": " + problem.message
        }.joined(separator: "\n")
    }
}
