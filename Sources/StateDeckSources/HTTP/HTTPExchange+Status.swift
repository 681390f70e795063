import StateDeck

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HTTPExchange {
    /// The catalogue's error for a status the source does not expect.
    func statusFailure() -> PanelError {
        let phrase = response.reason.isEmpty ? "" : " (\(response.reason))"
        let reason = "The service answered \(status)\(phrase)."
        let kind: ErrorKind
        switch status {
        case 503 where retryAfter != nil || text.lowercased().contains("maintenance"):
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
