/// The deck's maintenance at one moment: the windows holding now, and the next stretch of each
/// window the deck declares that begins within ``MaintenanceBook/horizon``. The `maintenance`
/// field of the state document and `GET /api/maintenance`.
public struct MaintenanceStatus: Sendable, Equatable, Codable {
    /// By start, then id.
    public var active: [MaintenanceSpan]
    /// By start, then id.
    public var next: [MaintenanceSpan]

    public init(active: [MaintenanceSpan] = [], next: [MaintenanceSpan] = []) {
        self.active = active
        self.next = next
    }
}
