/// A condition on a ping: how many requests may go unanswered, and how long the answered ones
/// may take. A source's conditions must all hold; without any, one answer is enough.
public enum PingCondition: Sendable, Hashable {
    /// Less than this share of requests (from 0 to 1) went unanswered.
    case lossBelow(Double)
    /// The answered requests' round trips averaged under this.
    case under(Duration)

    /// Why `report` fails the condition, or nil when it holds.
    func failure(of report: PingProbe.Report) -> String? {
        switch self {
        case .lossBelow(let limit):
            report.loss < limit ? nil
                : "\(report.sent - report.received) of \(report.sent) pings went unanswered (\(Self.percent(report.loss))), expected under \(Self.percent(limit))."
        case .under(let limit):
            report.average.flatMap { average in
                average < limit ? nil
                    : "Round trips averaged \(PingSource.millisecondsText(average)), expected under \(limit.shortText)."
            }
        }
    }

    /// "33 %", "0.5 %".
    static func percent(_ share: Double) -> String {
        let percent = share * 100
        let whole = percent.rounded()
        return abs(percent - whole) < 0.05 ? "\(Int(whole)) %" : "\((percent * 10).rounded() / 10) %"
    }
}
