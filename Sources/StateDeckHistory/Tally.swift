import StateDeck

/// What happened to one panel in one bucket of time (a minute, an hour, a day): how long its
/// source was up, down or loading for the first time, and its loads' count, failures and
/// durations. Tallies of consecutive buckets add up to the tally of the time they cover.
///
/// Time forced by a debug command is in none of them; time under maintenance is in
/// `maintenanceMs` alone, whatever the health, so no uptime ratio counts it.
public struct Tally: Sendable, Equatable {
    public var upMs: Int64 = 0
    public var downMs: Int64 = 0
    /// Loading with no result yet since the panel started or was reset.
    public var loadingMs: Int64 = 0
    /// Under a maintenance window, in place of up, down or loading.
    public var maintenanceMs: Int64 = 0
    /// Loads that ended, and how many of them failed.
    public var loads = 0
    public var failures = 0
    public var minMs: Int64?
    public var maxMs: Int64?
    public var totalMs: Int64 = 0
    public var durations = DurationHistogram()

    public init() {}

    /// Nothing was counted.
    public var isEmpty: Bool { upMs == 0 && downMs == 0 && loadingMs == 0 && maintenanceMs == 0 && loads == 0 }

    /// maintenance: under maintenance longer than up and down together; else up: only up;
    /// down: only down; degraded: both; loading: only a first load; none: no data.
    public var state: String {
        if maintenanceMs > 0, maintenanceMs > upMs + downMs { return "maintenance" }
        return switch (upMs > 0, downMs > 0) {
        case (true, true): "degraded"
        case (true, false): "up"
        case (false, true): "down"
        case (false, false): loadingMs > 0 ? "loading" : "none"
        }
    }

    /// Time up out of time up or down, when there was any.
    public var upRatio: Double? {
        let known = upMs + downMs
        return known > 0 ? Double(upMs) / Double(known) : nil
    }

    /// The mean duration of the loads counted with one (a push has none).
    public var averageMs: Int64? {
        let timed = Int64(durations.count)
        return timed > 0 ? (totalMs + timed / 2) / timed : nil
    }

    /// The 95th percentile of the durations, to within a histogram bucket, never above the longest.
    public var p95Ms: Int64? {
        durations.quantile(0.95).map { min($0, maxMs ?? $0) }
    }

    /// Counts time in `health`, or as maintenance `underMaintenance` (a panel with no health yet
    /// counts nowhere).
    mutating func add(_ health: Health, underMaintenance: Bool, milliseconds: Int64) {
        guard milliseconds > 0, health != .unknown else { return }
        guard !underMaintenance else { return maintenanceMs += milliseconds }
        switch health {
        case .up: upMs += milliseconds
        case .down: downMs += milliseconds
        case .loading: loadingMs += milliseconds
        case .unknown: break
        }
    }

    mutating func countLoad(failed: Bool, milliseconds: Int64?) {
        loads += 1
        if failed { failures += 1 }
        guard let milliseconds else { return }
        minMs = min(minMs ?? milliseconds, milliseconds)
        maxMs = max(maxMs ?? milliseconds, milliseconds)
        totalMs += milliseconds
        durations.add(milliseconds: milliseconds)
    }

    public mutating func merge(_ other: Tally) {
        upMs += other.upMs
        downMs += other.downMs
        loadingMs += other.loadingMs
        maintenanceMs += other.maintenanceMs
        loads += other.loads
        failures += other.failures
        if let otherMin = other.minMs { minMs = min(minMs ?? otherMin, otherMin) }
        if let otherMax = other.maxMs { maxMs = max(maxMs ?? otherMax, otherMax) }
        totalMs += other.totalMs
        durations.merge(other.durations)
    }
}

extension Tally {
    /// The tally a store kept as a `tallies` row, its durations as ``DurationHistogram/encoded``.
    public init(upMs: Int64, downMs: Int64, loadingMs: Int64, maintenanceMs: Int64 = 0, loads: Int, failures: Int,
                minMs: Int64?, maxMs: Int64?, totalMs: Int64, durations: [UInt8]) {
        self.init()
        self.upMs = upMs
        self.downMs = downMs
        self.loadingMs = loadingMs
        self.maintenanceMs = maintenanceMs
        self.loads = loads
        self.failures = failures
        self.minMs = minMs
        self.maxMs = maxMs
        self.totalMs = totalMs
        self.durations = DurationHistogram(encoded: durations) ?? DurationHistogram()
    }
}
