import FoundationEssentials
import StateDeck

/// IANA's registry of the RDAP servers for domains (RFC 9224): which base URLs answer for which
/// top-level domains.
struct RDAPBootstrap: Sendable, Equatable {
    /// Where IANA publishes it.
    static let ianaURL = URL(string: "https://data.iana.org/rdap/dns.json")!

    /// Each entry's base URLs, as listed: an entry is a top-level domain (`com`) or several labels.
    let servers: [String: [String]]

    /// The file's `services`: each a list of entries and a list of base URLs. Nil when the body
    /// is not such a file.
    init?(parsing body: [UInt8]) {
        struct File: Decodable {
            var services: [[[String]]]
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(body)) else { return nil }
        var servers: [String: [String]] = [:]
        for service in file.services where service.count == 2 {
            for entry in service[0] { servers[entry.lowercased()] = service[1] }
        }
        self.servers = servers
    }

    /// The base URL answering for `domain` (lowercase), ending in `/`: the longest entry the
    /// domain ends with, and its https URL when it lists one (RFC 9224, section 4).
    func server(for domain: String) -> URL? {
        let labels = domain.split(separator: ".")
        let entries = labels.indices.map { labels[$0...].joined(separator: ".") }
        guard let urls = entries.lazy.compactMap({ servers[$0] }).first else { return nil }
        let chosen = urls.first { $0.lowercased().hasPrefix("https:") } ?? urls.first
        return chosen.flatMap { URL(string: $0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}
