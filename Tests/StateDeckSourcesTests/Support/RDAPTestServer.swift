import Foundation
import TestSupport
@testable import StateDeckSources

/// An RDAP service of the tests' own on loopback, answering as RFC 9083 says: IANA's bootstrap
/// file at `/dns.json` (RFC 9224) naming this server for `.test` and `.example`, and a domain
/// object at `/rdap/domain/NAME` for each domain added; any other path answers 404, as a registry
/// does for a domain it does not have.
struct RDAPTestServer {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer(routes: [:])
        server.answer("/dns.json", with: Self.json(Self.bootstrap(base: server.url("/rdap").absoluteString)))
    }

    /// Where the bootstrap file is.
    var bootstrapURL: URL { server.url("/dns.json") }

    /// Where a domain's object is asked.
    func domainPath(_ name: String) -> String { "/rdap/domain/\(name)" }

    /// A source checking `name` through this server's bootstrap file.
    func source(_ name: String, warnBefore: Duration = .seconds(30 * 86_400), timeout: Duration = .seconds(5)) -> DomainSource {
        var source = DomainSource(name: name, warnBefore: warnBefore, timeout: timeout)
        source.bootstrapURL = bootstrapURL
        return source
    }

    /// Registers `name`, expiring `expiresIn` from now (no expiration event when nil).
    func register(_ name: String, expiresIn: TimeInterval?, registrar: String? = "Example Registrar, Inc.",
                  status: [String] = ["client delete prohibited", "client transfer prohibited"]) {
        server.answer(domainPath(name), with: Self.json(Self.domain(name, expiry: expiresIn.map { Date().addingTimeInterval($0) },
                                                                   registrar: registrar, status: status)))
    }

    static func json(_ body: String, status: Int = 200, delay: Duration = .zero) -> TestHTTPServer.Response {
        TestHTTPServer.Response(status: status, headers: ["Content-Type": "application/rdap+json"], body: body, delay: delay)
    }

    /// A bootstrap file as IANA publishes it: `test` answered by `base` (its URL without the final
    /// slash, as some registries list theirs, and an http one listed first), `nowhere` by no entry.
    static func bootstrap(base: String) -> String {
        """
        {
          "description": "RDAP bootstrap file for Domain Name System registrations",
          "publication": "2026-01-05T17:00:02Z",
          "services": [
            [["example", "test"], ["\(base)"]],
            [["org"], ["http://rdap.org.invalid/", "https://rdap.org.invalid/"]]
          ],
          "version": "1.0"
        }
        """
    }

    /// A domain object as RFC 9083 shows one (section 5.3), with a registrar entity (jCard),
    /// registration and expiration events, statuses and name servers.
    static func domain(_ name: String, expiry: Date?, registrar: String?, status: [String]) -> String {
        let formatter = ISO8601DateFormatter()
        let events = [#"{ "eventAction": "registration", "eventDate": "1997-09-15T04:00:00Z" }"#]
            + (expiry.map { [#"{ "eventAction": "expiration", "eventDate": "\#(formatter.string(from: $0))" }"#] } ?? [])
            + [#"{ "eventAction": "last update of RDAP database", "eventDate": "2026-01-05T16:48:31Z" }"#]
        let entities = registrar.map { registrar in
            #"""
            [{
              "objectClassName": "entity", "handle": "292", "roles": ["registrar"],
              "publicIds": [{ "type": "IANA Registrar ID", "identifier": "292" }],
              "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "\#(registrar)"]]],
              "entities": [{
                "objectClassName": "entity", "roles": ["abuse"],
                "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", ""], ["tel", { "type": "voice" }, "uri", "tel:+1.2086851750"]]]
              }]
            }]
            """#
        } ?? "[]"
        return """
            {
              "objectClassName": "domain",
              "handle": "2138514_DOMAIN_COM-VRSN",
              "ldhName": "\(name.uppercased())",
              "links": [{ "value": "https://rdap.test/domain/\(name)", "rel": "self", "href": "https://rdap.test/domain/\(name)", "type": "application/rdap+json" }],
              "status": [\(status.map { "\"\($0)\"" }.joined(separator: ", "))],
              "entities": \(entities),
              "events": [\(events.joined(separator: ", "))],
              "secureDNS": { "delegationSigned": false },
              "nameservers": [{ "objectClassName": "nameserver", "ldhName": "A.IANA-SERVERS.NET" }],
              "rdapConformance": ["rdap_level_0", "icann_rdap_technical_implementation_guide_1", "icann_rdap_response_profile_1"],
              "notices": [{ "title": "Terms of Use", "description": ["Service subject to Terms of Use."] }]
            }
            """
    }
}
