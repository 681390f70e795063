import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The certificate a server presented in a TLS handshake: the first of the chain libcurl reads
/// (`CURLOPT_CERTINFO`).
public struct PeerCertificate: Sendable, Hashable {
    /// OpenSSL's one-line form, such as `CN = api.example.com`.
    public var subject: String
    public var issuer: String
    /// The names it is for (`DNS:api.example.com, DNS:www.example.com`), empty when it has no
    /// subject alternative names.
    public var alternativeNames: String
    /// Its last valid second, in seconds since 1970 UTC.
    public var notAfter: Int

    public init(subject: String, issuer: String, alternativeNames: String, notAfter: Int) {
        self.subject = subject
        self.issuer = issuer
        self.alternativeNames = alternativeNames
        self.notAfter = notAfter
    }

    /// The names it is for: the alternative names' DNS names and addresses, or else the subject's
    /// common name.
    public var names: [String] {
        let alternatives = alternativeNames.split(separator: ",").compactMap { entry -> String? in
            let entry = entry.trimmingPrefix(" ")
            for prefix in ["DNS:", "IP Address:"] where entry.hasPrefix(prefix) {
                return String(entry.dropFirst(prefix.count))
            }
            return nil
        }
        if !alternatives.isEmpty { return alternatives }
        return subject.split(separator: ",").compactMap { part in
            let part = part.trimmingPrefix(" ")
            return part.hasPrefix("CN = ") ? String(part.dropFirst(5)) : nil
        }
    }
}

/// Why a certificate was not trusted: OpenSSL's verification result
/// (`CURLINFO_SSL_VERIFYRESULT`), or the name libcurl checks after it.
public enum CertificateProblem: Sendable, Hashable {
    case expired
    case notYetValid
    /// The server's own certificate signs itself.
    case selfSigned
    /// The chain ends at a root the trusted roots do not hold (a self-signed one among them).
    case untrustedIssuer
    /// The chain is trusted but not for the name connected to.
    case nameMismatch
    /// Another of OpenSSL's results (`X509_V_ERR_…`), such as a revoked certificate.
    case other(Int)

    /// The problem of a rejection whose verification result is `code`. libcurl (7.88) checks the
    /// name before it records the chain's result, so a wrong name leaves the value it starts
    /// from, 1 (`!X509_V_OK`).
    init(verifyResult code: Int) {
        switch code {
        case 0, 1: self = .nameMismatch
        case 9: self = .notYetValid  // X509_V_ERR_CERT_NOT_YET_VALID
        case 10: self = .expired  // X509_V_ERR_CERT_HAS_EXPIRED
        case 18: self = .selfSigned  // X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT
        // X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, _SELF_SIGNED_CERT_IN_CHAIN,
        // _UNABLE_TO_GET_ISSUER_CERT_LOCALLY, _UNABLE_TO_VERIFY_LEAF_SIGNATURE
        case 2, 19, 20, 21: self = .untrustedIssuer
        default: self = .other(code)
        }
    }
}

extension PeerCertificate {
    /// The first certificate of libcurl's `chain` (`CURLINFO_CERTINFO`), nil when there is none
    /// or its expiry cannot be read.
    init?(_ chain: UnsafeMutablePointer<curl_certinfo>?) {
        guard let chain, chain.pointee.num_of_certs > 0, let first = chain.pointee.certinfo?[0] else { return nil }
        var fields: [String: String] = [:]
        var line: UnsafeMutablePointer<curl_slist>? = first
        while let entry = line {
            if let data = entry.pointee.data {
                let text = String(cString: data)
                if let colon = text.firstIndex(of: ":") {
                    fields[String(text[..<colon])] = String(text[text.index(after: colon)...])
                }
            }
            line = entry.pointee.next
        }
        guard let expiry = fields["Expire date"], let notAfter = Self.seconds(ofOpenSSLDate: expiry) else { return nil }
        self.init(subject: fields["Subject"] ?? "", issuer: fields["Issuer"] ?? "",
                  alternativeNames: fields["X509v3 Subject Alternative Name"] ?? "", notAfter: notAfter)
    }

    /// Seconds since 1970 of OpenSSL's `Dec 27 18:26:02 2026 GMT` (`timegm`).
    static func seconds(ofOpenSSLDate text: String) -> Int? {
        let words = text.split(separator: " ")
        let clock = words.count == 5 ? words[2].split(separator: ":").compactMap { Int32($0) } : []
        guard clock.count == 3, words[4] == "GMT", let month = months.firstIndex(of: String(words[0])),
              let day = Int32(words[1]), let year = Int32(words[3]) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = clock[0]
        parts.tm_min = clock[1]
        parts.tm_sec = clock[2]
        return timegm(&parts)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
