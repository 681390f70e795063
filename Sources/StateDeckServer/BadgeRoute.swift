import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory

/// `GET /badge/{panel}.svg`: a panel's state as a badge for a README, a wiki or a CI page; with
/// `?uptime=24h` (or `7d`, `30d`), its uptime over that window, which the uptime route's report
/// gives.
///
/// The label is the panel's title. A badge is live state: never cached, and behind the gate
/// like the API; but a badge of a panel the status page lists on its own is public: its label is
/// the panel's public name, and other sites may embed it.
struct BadgeRoute: Sendable {
    let mirror: StateMirror
    let historyReader: PanelHistoryReader
    /// The public name of a panel the status page lists on its own, else nil.
    let publicName: @Sendable (String) -> String?

    /// The windows of the uptime route's report.
    enum UptimeWindow: String, CaseIterable, Sendable {
        case day = "24h"
        case week = "7d"
        case month = "30d"

        func ratio(in report: UptimeReport) -> Double? {
            switch self {
            case .day: report.day
            case .week: report.week
            case .month: report.month
            }
        }
    }

    func register(on router: inout Router) {
        router.on(.get, "/badge/{panel}.svg") { request, parameters in
            let id = parameters["panel"] ?? ""
            let publicName = publicName(id)
            guard let text = request.query["uptime"] else {
                guard var panel = mirror.headline(of: id) else { return .response(DeckError.unknownPanel(id).response) }
                panel.label = publicName ?? panel.label
                return .response(Self.response(Self.stateBadge(of: panel), embeddable: publicName != nil))
            }
            return historyReader.reply(panel: id) { history, id throws(HistoryParameters.Invalid) in
                guard let window = UptimeWindow(rawValue: text) else {
                    let windows = UptimeWindow.allCases.map(\.rawValue).joined(separator: ", ")
                    throw HistoryParameters.Invalid(message: "uptime must be one of \(windows), not '\(text)'")
                }
                let label = publicName ?? mirror.headline(of: id)?.label ?? id
                let query = TimelineQuery(slots: 1)
                return { () throws(HistoryStoreError) in
                    Self.uptimeBadge(label: label, ratio: window.ratio(in: try history.uptime(of: id, query)), window: window)
                }
            } answer: { badge in
                Self.response(badge, embeddable: publicName != nil)
            }
        }
    }

    /// The panel's health now, as its state document says it.
    static func stateBadge(of panel: PanelHeadline) -> BadgeSVG {
        let colour: BadgeSVG.Colour = switch panel.health {
        case .up: .brightGreen
        case .down: .red
        case .loading: .blue
        case .unknown: .grey
        }
        return BadgeSVG(label: panel.label, message: panel.health.name, colour: colour)
    }

    /// "99.95% (24h)": hundredths rounded down, so that a window with any time down never reads
    /// 100%; "no data (24h)" in grey before the window holds a result.
    static func uptimeBadge(label: String, ratio: Double?, window: UptimeWindow) -> BadgeSVG {
        guard let ratio else { return BadgeSVG(label: label, message: "no data (\(window.rawValue))", colour: .grey) }
        // Up to a billionth added: the ratio of whole milliseconds may land a hair below a hundredth.
        let hundredths = Int((ratio * 10_000 + 1e-9).rounded(.down))
        let colour: BadgeSVG.Colour = switch hundredths {
        case 9_990...: .brightGreen
        case 9_900...: .green
        case 9_500...: .yellow
        case 9_000...: .orange
        default: .red
        }
        return BadgeSVG(label: label, message: "\(percent(hundredths: hundredths)) (\(window.rawValue))", colour: colour)
    }

    /// `hundredths` of a percent without trailing zeros: "99.95%", "99.9%", "100%".
    static func percent(hundredths: Int) -> String {
        var decimals = String(String(hundredths % 100 + 100).dropFirst())
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(hundredths / 100)\(decimals.isEmpty ? "" : "." + decimals)%"
    }

    /// The badge's answer: never cached, since it is live state; `embeddable` by other sites'
    /// pages, or by this server's only.
    private static func response(_ badge: BadgeSVG, embeddable: Bool) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "image/svg+xml", "Cache-Control": "no-cache"]
        if embeddable { headers.add("Cross-Origin-Resource-Policy", "cross-origin") }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(Array(badge.document.utf8)))
    }
}
