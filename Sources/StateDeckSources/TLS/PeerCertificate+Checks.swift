import HTTPClient
import StateDeck

extension PeerCertificate {
    /// Whole days from `now` (seconds since 1970) to its expiry, rounded down; negative once expired.
    func daysLeft(now: Int) -> Int {
        (notAfter - now).wholeDays
    }

    /// "6 December 2026", in UTC.
    var expiryDate: String { CivilDate(second: notAfter).written }

    /// "6 December", in UTC.
    var expiryDay: String { CivilDate(second: notAfter).writtenWithoutYear }

    /// Throws `certificateExpiring` when it expires within `validFor` of `now`.
    func check(validFor: Duration, name: String, now: Int, detail: String) throws(PanelError) {
        guard notAfter - now < Int(validFor.components.seconds) else { return }
        throw PanelError(.certificateExpiring,
                         failureReason: "\(name)'s certificate expires \((notAfter - now).whenDue), on \(expiryDay).",
                         recoverySuggestion: "Renew it before then.", detail: "\(detail): expires \(expiryDate)")
    }
}

extension PanelError {
    /// `certificateUntrusted`, saying why: "api.example.com's certificate is not trusted: it is self-signed."
    static func untrusted(_ certificate: PeerCertificate, _ problem: CertificateProblem, name: String,
                          detail: String) -> PanelError {
        let why = switch problem {
        case .expired: "it expired on \(certificate.expiryDay)"
        case .nameMismatch: "it is for \(certificate.names.joined(separator: ", ")), not \(name)"
        default: problem.reason
        }
        return PanelError(.certificateUntrusted, failureReason: "\(name)'s certificate is not trusted: \(why).",
                          detail: detail)
    }
}

extension CertificateProblem {
    /// Why, without the certificate at hand: "it is self-signed".
    var reason: String {
        switch self {
        case .expired: "it has expired"
        case .notYetValid: "it is not valid yet"
        case .selfSigned: "it is self-signed"
        case .untrustedIssuer: "its issuer is not trusted"
        case .nameMismatch: "it is for another name"
        case .other: "it did not verify"
        }
    }
}
