#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HTTPClient
import StateDeck

extension PeerCertificate {
    /// Whole days from `now` (seconds since 1970) to its expiry, rounded down; negative once expired.
    func daysLeft(now: Int) -> Int {
        (notAfter - now).floorDivided(by: 86_400)
    }

    /// "6 December 2026", in UTC.
    var expiryDate: String {
        let (day, month, year) = Self.civilDate(notAfter)
        return "\(day) \(month) \(year)"
    }

    /// "6 December", in UTC.
    var expiryDay: String {
        let (day, month, _) = Self.civilDate(notAfter)
        return "\(day) \(month)"
    }

    /// Throws `certificateExpiring` when it expires within `validFor` of `now`.
    func check(validFor: Duration, name: String, now: Int, detail: String) throws(PanelError) {
        guard notAfter - now < Int(validFor.components.seconds) else { return }
        let days = daysLeft(now: now)
        let when = days < 1 ? "within a day" : "in \(days.counted("day"))"
        throw PanelError(.certificateExpiring, failureReason: "\(name)'s certificate expires \(when), on \(expiryDay).",
                         recoverySuggestion: "Renew it before then.", detail: "\(detail): expires \(expiryDate)")
    }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]

    private static func civilDate(_ seconds: Int) -> (day: Int, month: String, year: Int) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (Int(parts.tm_mday), months[Int(parts.tm_mon)], Int(parts.tm_year) + 1900)
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

extension Int {
    /// "1 day", "9 days".
    func counted(_ noun: String) -> String {
        "\(self) \(noun)\(self == 1 ? "" : "s")"
    }

    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
