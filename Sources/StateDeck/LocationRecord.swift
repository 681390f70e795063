import FoundationEssentials

/// What a deck saw of one panel from its own place: its health by the newest result, since when,
/// and how long it was up and down, counted from one result to the next since the deck started.
///
/// A probe writes these to the store; the deck serving the page makes its own entry of a panel's
/// ``PanelState/locations`` from it.
public struct LocationRecord: Sendable, Equatable {
    /// `up` or `down` by the newest result; `loading` before the first.
    public private(set) var health: PanelLocation.Health = .loading
    /// The newest info's summary, or the newest error's title.
    public private(set) var summary: String?
    /// When the health last changed; nil before the first result.
    public private(set) var since: Date?
    /// Time between results spent up, and down (up to the newest result).
    public private(set) var upTime: Duration = .zero
    public private(set) var downTime: Duration = .zero
    /// When the newest result came.
    private var counted: Date?

    public init() {}

    /// Counts the time since the previous result under its health, then takes `state`'s; loading
    /// and initial states change nothing.
    mutating func record(_ state: ViewState, at date: Date) {
        let next: PanelLocation.Health
        switch state {
        case .loaded(let info):
            next = .up
            summary = info.summary
        case .error(let error):
            next = .down
            summary = error.title
        case .initial, .loading:
            return
        }
        if let counted, date > counted {
            let elapsed = Duration.milliseconds(Int64((date.timeIntervalSince(counted) * 1000).rounded()))
            if health == .up { upTime += elapsed } else if health == .down { downTime += elapsed }
        }
        counted = date
        if next != health { since = date }
        health = next
    }

    /// This record as the location `name`.
    public func location(named name: String) -> PanelLocation {
        PanelLocation(name: name, health: health, summary: summary, since: since,
                      uptime: PanelLocation.uptime(up: upTime, down: downTime))
    }
}
