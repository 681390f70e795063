import StateDeck

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HTTPExchange {
    /// The catalogue's error for a status outside `expected`. Where the fix is not a retry, the
    /// card names the URL that answered and where to look.
    func statusFailure(expected: StatusSet) -> PanelError {
        let phrase = response.reason.isEmpty ? "" : " (\(response.reason))"
        let url = source.shownURL
        switch status {
        case 503 where retryAfter != nil || text.lowercased().contains("maintenance"):
            return PanelError(.serverMaintenance, failureReason: "The service answered \(status)\(phrase).",
                              detail: detail, retryAfter: retryAfter)
        case 500...599:
            return PanelError(.serverError, failureReason: "The service answered \(status)\(phrase).", detail: detail)
        case 401, 403:
            return PanelError(.unauthorized, failureReason: "\(url) answered \(status)\(phrase).",
                              recoverySuggestion: "Check the credentials this panel sends to \(url) (its headers in the deck file), then check again.",
                              detail: detail)
        case 404, 410:
            return PanelError(.notFound, failureReason: "\(url) answered \(status)\(phrase).",
                              recoverySuggestion: "Check the panel's URL in the deck file, or whether the service still offers it.",
                              detail: detail)
        default:
            return checkFailed("\(url) answered \(status), expected \(expected).")
        }
    }

    /// `Retry-After` as a delay: seconds, or an HTTP date from now.
    var retryAfter: Duration? {
        guard let value = response.header("Retry-After")?
            .trimmed() else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = Self.secondsSinceEpoch(httpDate: value) else { return nil }
        return .seconds(max(0, date - time(nil)))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form of HTTP date senders must use.
    private static func secondsSinceEpoch(httpDate text: String) -> Int? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), year >= 1970
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        var fields = tm()
        (fields.tm_year, fields.tm_mon, fields.tm_mday) = (Int32(year - 1900), Int32(month), Int32(day))
        (fields.tm_hour, fields.tm_min, fields.tm_sec) = (Int32(clock[0]), Int32(clock[1]), Int32(clock[2]))
        return timegm(&fields)
    }
}
