import FoundationEssentials
import StateDeck

/// What a domain panel reads of an RDAP domain object (RFC 9083, section 5.3): its expiration
/// event, the registrar's name and the registry's statuses.
struct RDAPDomain: Decodable {
    struct Event: Decodable {
        var eventAction: String
        var eventDate: String?
    }

    struct Entity: Decodable {
        var roles: [String]?
        /// jCard (RFC 7095): `["vcard", [["fn", {}, "text", "Example Registrar, Inc."], …]]`.
        var vcardArray: JSONValue?
    }

    var objectClassName: String?
    var events: [Event]?
    var status: [String]?
    var entities: [Entity]?

    /// The answer's body as a domain object; nil when it is not one.
    init?(parsing body: [UInt8]) {
        guard let domain = try? JSONDecoder().decode(Self.self, from: Data(body)),
              domain.objectClassName == "domain" else { return nil }
        self = domain
    }

    /// The `expiration` event's date as written, nil when the registry publishes none.
    var expirationDate: String? {
        events?.first { $0.eventAction == "expiration" }?.eventDate
    }

    /// The formatted name (`fn`) of the entity with the role `registrar`.
    var registrar: String? {
        guard case .array(let card)? = entities?.first(where: { $0.roles?.contains("registrar") == true })?.vcardArray,
              card.count > 1, case .array(let properties) = card[1] else { return nil }
        for case .array(let property) in properties where property.count > 3 && property[0] == .string("fn") {
            if case .string(let name) = property[3], !name.isEmpty { return name }
        }
        return nil
    }
}
