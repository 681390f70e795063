import FoundationEssentials
import StateDeckServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension AccessFile {
    /// What a new access file starts with, above its first entry.
    static let header = "# Who may reach this StateDeck: a name, a role and the SHA-256 of their token, never the token.\n"
        + "# Roles: viewer (read), operator (also act: retry, recover, maintenance, incidents), designer (also debug).\n"
        + "# Add entries with: statedeck token add --access FILE NAME --role ROLE\n"

    /// Makes a token for `name` with `role`, appends its entry to the file at `path` (created with
    /// mode 0600 when missing) and returns the token, which is nowhere else: the file keeps only
    /// its digest.
    ///
    /// - Throws: the name is not valid or is listed already, or the file cannot be used.
    public static func add(name: String, role: AccessRole, to path: String) throws(AccessFileError) -> AccessToken {
        let problem = { (message: String) in AccessFileError(file: path, problems: [(nil, message)]) }
        guard AccessList.isValidName(name) else {
            throw problem("name \(name): use 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
        var prefix = ""
        let descriptor: Int32
        if access(path, F_OK) == 0 {
            let text = try read(path)
            if let entry = try parse(text, file: path).entries.first(where: { $0.name == name }) {
                throw problem("\(name) is listed already, as \(entry.role.rawValue); choose another name, or remove that line first")
            }
            if !text.isEmpty && !text.hasSuffix("\n") { prefix = "\n" }
            descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        } else {
            prefix = header
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw problem("cannot be written: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let token = AccessToken.generate()
        let bytes = Array((prefix + line(name: name, role: role, digest: TokenDigest(of: token.description))).utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw problem("cannot be written: \(String(cString: strerror(errno)))")
        }
        return token
    }
}
