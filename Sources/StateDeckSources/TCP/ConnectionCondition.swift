/// A condition on a tcp source's connection: the banner the service sends first, or how long
/// connecting took. A source's conditions must all hold.
public enum ConnectionCondition: Sendable, Hashable {
    /// The banner, the first line the service sends (up to 1 KiB), passes the test.
    case banner(TextTest)
    /// The connection was made within this time.
    case under(Duration)

    /// Why `connection` fails the condition, or nil when it holds.
    func failure(of connection: TCPProbe.Connection) -> String? {
        switch self {
        case .banner(let test):
            test.failure(of: connection.banner, subject: "The banner")
        case .under(let limit):
            connection.time < limit ? nil : "Connected in \(connection.time.shortText), expected under \(limit.shortText)."
        }
    }
}
