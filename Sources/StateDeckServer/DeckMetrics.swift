import EventStream
import Locking
import Prometheus
import StateDeck

/// The deck and its streams as Prometheus metrics, for `GET /metrics`, kept by swift-prometheus'
/// registry as the deck's events arrive.
///
/// | metric | type | labels | what |
/// | --- | --- | --- | --- |
/// | `statedeck_panel_up` | gauge | panel, group, source | 1 up, 0 down (an error, or stale info), NaN no result yet |
/// | `statedeck_panel_loading` | gauge | panel, group, source | 1 while the panel shows loading |
/// | `statedeck_panel_load_duration_seconds` | gauge | panel, group, source | the newest load's duration |
/// | `statedeck_load_duration_seconds` | histogram | group, source | every load's duration |
/// | `statedeck_transitions_total` | counter | group, source, to | changes from up to down (`to="down"`) and back |
/// | `statedeck_load_failures_total` | counter | group, source, kind | failed loads, by error kind |
/// | `statedeck_retries_total` | counter | group, source | automatic retries planned |
/// | `statedeck_streams_open` | gauge | | open event streams |
/// | `statedeck_events_total` | counter | | events published to the streams (each goes to every stream) |
/// | `statedeck_notifications_total` | counter | result | notifications delivered to notify targets (`sent`) or given up (`failed`), not the page's |
///
/// Debug-forced states count nowhere: a pinned panel's gauges keep their last real values.
/// Per-panel series are gauges, a few per panel; the histogram and counters are per group and
/// source kind, so a deck of 10,000 panels does not make 10,000 histograms.
final class DeckMetrics: Sendable {
    /// A panel's group id ("" without one) and source kind ("code" for a loader in code).
    private struct Kind: Hashable {
        let group: String
        let source: String

        var labels: [(String, String)] { [("group", group), ("source", source)] }
    }

    private struct PanelSeries {
        let kind: Kind
        let up: Gauge
        let loading: Gauge
        let lastDuration: Gauge
        /// Nil before the first result.
        var isUp: Bool?
        var retryAttempt: Int?
    }

    private struct KindSeries {
        let durations: DurationHistogram
        let toUp: Counter
        let toDown: Counter
        let retries: Counter
        var failures: [ErrorKind: Counter] = [:]
    }

    private struct State {
        /// Events of a replaced deck are ignored.
        var generation = 0
        var panels: [String: PanelSeries] = [:]
        var kinds: [Kind: KindSeries] = [:]
        /// The hub's event id when counting began, and what was counted of it since.
        var eventsCounted: UInt64
    }

    /// Buckets of the load duration histogram, from a local answer to a timeout.
    static let durationBuckets: [Duration] = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000]
        .map { .milliseconds($0) }

    private let registry = PrometheusCollectorRegistry()
    private let state: Locked<State>
    private let hub: EventHub
    private let streamsOpen: Gauge
    private let events: Counter
    private let notificationsSent: Counter
    private let notificationsFailed: Counter

    init(hub: EventHub) {
        self.hub = hub
        state = Locked(State(eventsCounted: hub.lastEventID))
        streamsOpen = registry.makeGauge(descriptor: Self.name("streams_open", help: "Open event streams."))
        events = registry.makeCounter(descriptor: Self.name(
            "events", unit: "total", help: "Events published to the streams; each goes to every open stream."))
        let notifications = Self.name("notifications", unit: "total", help: "Notifications delivered, or given up.")
        notificationsSent = registry.makeCounter(descriptor: notifications, labels: [("result", "sent")])
        notificationsFailed = registry.makeCounter(descriptor: notifications, labels: [("result", "failed")])
    }

    /// Counts a notification delivered, or given up.
    func countNotification(delivered: Bool) {
        (delivered ? notificationsSent : notificationsFailed).increment()
    }

    /// Follows `deck` from now on, in place of the deck followed before: series of panels it lacks
    /// go, counters stay.
    func follow(_ deck: Deck) async {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        await deck.observe { [self] event in apply(event, generation: generation) }
        let snapshot = await deck.snapshot()
        let kinds = deck.sourceKinds
        state.withLock { state in
            let kept = Set(snapshot.panels.map(\.id))
            for (id, series) in state.panels where !kept.contains(id) {
                [series.up, series.loading, series.lastDuration].forEach(registry.unregisterGauge)
                state.panels[id] = nil
            }
            for panel in snapshot.panels {
                let kind = Kind(group: panel.group ?? "", source: kinds[panel.id] ?? "code")
                var series = state.panels[panel.id].flatMap { $0.kind == kind ? $0 : nil }
                    ?? makeSeries(panel: panel.id, kind: kind)
                series.isUp = Self.isUp(panel)
                series.up.set(to: series.isUp.map { $0 ? 1 : 0 } ?? .nan)
                series.loading.set(to: panel.isLoading ? 1 : 0)
                state.panels[panel.id] = series
            }
        }
    }

    /// The metrics in Prometheus' text format.
    func exposition() -> [UInt8] {
        streamsOpen.set(to: Double(hub.subscriberCount))
        let published = hub.lastEventID
        let newEvents = state.withLock { state in
            defer { state.eventsCounted = max(state.eventsCounted, published) }
            return published > state.eventsCounted ? published - state.eventsCounted : 0
        }
        if newEvents > 0 { events.increment(by: Int64(newEvents)) }
        return registry.emitToBuffer()
    }

    private func apply(_ event: DeckEvent, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            switch event {
            case .panel(let panel) where !panel.debugPinned:
                guard var series = state.panels[panel.id] else { return }
                series.loading.set(to: panel.isLoading ? 1 : 0)
                let isUp = Self.isUp(panel)
                if let isUp, let wasUp = series.isUp, isUp != wasUp {
                    let counters = kindSeries(series.kind, in: &state)
                    (isUp ? counters.toUp : counters.toDown).increment()
                }
                if let isUp { series.up.set(to: isUp ? 1 : 0) }
                series.isUp = isUp ?? series.isUp
                if let attempt = panel.retry?.attempt, attempt != series.retryAttempt {
                    kindSeries(series.kind, in: &state).retries.increment()
                }
                series.retryAttempt = panel.retry?.attempt
                state.panels[panel.id] = series
            case .change(let change) where change.cause != .debug:
                guard let series = state.panels[change.panel] else { return }
                if let duration = change.duration {
                    series.lastDuration.set(to: duration / .seconds(1))
                    kindSeries(series.kind, in: &state).durations.record(duration)
                }
                if case .error(let error) = change.state, change.duration != nil || change.cause == .push {
                    failures(of: error.kind, kind: series.kind, in: &state).increment()
                }
            default:
                break
            }
        }
    }

    /// Up with a result shown fresh, down with an error or stale info, nil before any result
    /// (or after a reset).
    private static func isUp(_ panel: PanelState) -> Bool? {
        if panel.latestValidError != nil || panel.stale { return false }
        return panel.latestValidInfo != nil ? true : nil
    }

    private func makeSeries(panel: String, kind: Kind) -> PanelSeries {
        let labels = [("panel", panel)] + kind.labels
        return PanelSeries(
            kind: kind,
            up: registry.makeGauge(descriptor: Self.name(
                "panel_up", help: "1 when the panel's source is up, 0 when down, NaN before its first result."),
                labels: labels),
            loading: registry.makeGauge(descriptor: Self.name(
                "panel_loading", help: "1 while the panel shows loading."), labels: labels),
            lastDuration: registry.makeGauge(descriptor: Self.name(
                "panel_load_duration", unit: "seconds", help: "How long the panel's newest load ran."), labels: labels))
    }

    private func kindSeries(_ kind: Kind, in state: inout State) -> KindSeries {
        if let series = state.kinds[kind] { return series }
        let transitions = Self.name("transitions", unit: "total", help: "Panels that went down, or up again.")
        let series = KindSeries(
            durations: registry.makeDurationHistogram(
                descriptor: Self.name("load_duration", unit: "seconds", help: "How long loads ran."),
                labels: kind.labels, buckets: Self.durationBuckets),
            toUp: registry.makeCounter(descriptor: transitions, labels: kind.labels + [("to", "up")]),
            toDown: registry.makeCounter(descriptor: transitions, labels: kind.labels + [("to", "down")]),
            retries: registry.makeCounter(descriptor: Self.name(
                "retries", unit: "total", help: "Automatic retries planned after failed attempts."), labels: kind.labels))
        state.kinds[kind] = series
        return series
    }

    private func failures(of errorKind: ErrorKind, kind: Kind, in state: inout State) -> Counter {
        var series = kindSeries(kind, in: &state)
        if let counter = series.failures[errorKind] { return counter }
        let counter = registry.makeCounter(
            descriptor: Self.name("load_failures", unit: "total", help: "Failed loads, by error kind."),
            labels: kind.labels + [("kind", errorKind.rawValue)])
        series.failures[errorKind] = counter
        state.kinds[kind] = series
        return counter
    }

    private static func name(_ metric: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "statedeck", metricName: metric, unitName: unit, helpText: help)
    }
}
