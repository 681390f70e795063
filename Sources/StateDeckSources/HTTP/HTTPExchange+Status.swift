import Foundation
import StateDeck

extension HTTPExchange {
    /// The catalogue's error for a status the source does not expect.
    func statusFailure() -> PanelError {
        let phrase = response.reason.isEmpty ? "" : " (\(response.reason))"
        let reason = "The service answered \(status)\(phrase)."
        let kind: ErrorKind
        switch status {
        case 503 where retryAfter != nil || text.localizedCaseInsensitiveContains("maintenance"):
            return PanelError(.serverMaintenance, failureReason: reason, detail: detail, retryAfter: retryAfter)
        case 500...599: kind = .serverError
        case 401, 403: kind = .unauthorized
        case 404, 410: kind = .notFound
        default:
            let expected = source.expectedStatuses.map { $0.sorted().map(String.init).joined(separator: " or ") } ?? "2xx"
            return invalid("The service answered \(status), not \(expected).")
        }
        return PanelError(kind, failureReason: reason, detail: detail)
    }

    /// `Retry-After` as a delay: seconds, or an HTTP date from now.
    var retryAfter: Duration? {
        guard let value = response.header("Retry-After")?
            .trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = Self.httpDate.date(from: value) else { return nil }
        return .milliseconds(max(0, Int64(date.timeIntervalSinceNow * 1000)))
    }

    private static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()
}
