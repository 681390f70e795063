import EventStream
import Locking
import Prometheus
import StateDeck
import StateDeckNotifications

/// The deck and its streams as Prometheus metrics, for `GET /metrics`, kept up to date as the
/// deck's events arrive: the aggregates in swift-prometheus' registry, each panel's gauges in a
/// table of its own.
///
/// | metric | type | labels | what |
/// | --- | --- | --- | --- |
/// | `statedeck_panel_up` | gauge | panel, group, source | the panel's `health`: 1 up, 0 down (a dismissed error card included), NaN no result yet |
/// | `statedeck_panel_loading` | gauge | panel, group, source | 1 while the panel shows loading |
/// | `statedeck_panel_load_duration_seconds` | gauge | panel, group, source | the newest load's duration |
/// | `statedeck_load_duration_seconds` | histogram | group, source | every load's duration |
/// | `statedeck_transitions_total` | counter | group, source, to | changes from up to down (`to="down"`) and back |
/// | `statedeck_load_failures_total` | counter | group, source, kind | failed loads, by error kind |
/// | `statedeck_retries_total` | counter | group, source | automatic retries planned |
/// | `statedeck_streams_open` | gauge | | open event streams |
/// | `statedeck_events_total` | counter | | events published to the streams (each goes to every stream) |
/// | `statedeck_notifications_total` | counter | result | notifications to notify targets delivered (`sent`), given up (`failed`) or never sent (`dropped`: over a target's limit, or too old at start), not the page's |
///
/// Debug-forced states count nowhere: a pinned panel's gauges keep their last real values.
/// Per-panel series are gauges, a few per panel; the histogram and counters are per group and
/// source kind, so a deck of 10,000 panels does not make 10,000 histograms.
///
/// The per-panel gauges are written here, not made in the registry: it copies a metric's whole
/// family to add one series, so 30,000 of them took the start of a 10,000-panel deck to 6 s.
final class DeckMetrics: Sendable {
    /// A panel's group id ("" without one) and source kind ("code" for a loader in code).
    private struct Kind: Hashable {
        let group: String
        let source: String

        var labels: [(String, String)] { [("group", group), ("source", source)] }
    }

    /// One panel's gauges.
    private struct PanelSeries {
        let kind: Kind
        /// Nil before the first result.
        var isUp: Bool?
        var isLoading = false
        /// The newest load's duration; nil before the first.
        var lastDuration: Duration?
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
        /// The panels' ids in the deck's order, for the exposition.
        var order: [String] = []
        var kinds: [Kind: KindSeries] = [:]
        /// The hub's count of events published when counting began, and what was counted of it
        /// since.
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
    private let notificationsDropped: Counter

    init(hub: EventHub) {
        self.hub = hub
        state = Locked(State(eventsCounted: hub.publishedCount))
        streamsOpen = registry.makeGauge(descriptor: Self.name("streams_open", help: "Open event streams."))
        events = registry.makeCounter(descriptor: Self.name(
            "events", unit: "total", help: "Events published to the streams; each goes to every open stream."))
        let notifications = Self.name("notifications", unit: "total", help: "Notifications delivered, given up, or dropped.")
        notificationsSent = registry.makeCounter(descriptor: notifications, labels: [("result", "sent")])
        notificationsFailed = registry.makeCounter(descriptor: notifications, labels: [("result", "failed")])
        notificationsDropped = registry.makeCounter(descriptor: notifications, labels: [("result", "dropped")])
    }

    /// Counts the notifications of a message (gathered ones each) by what became of it.
    func countNotifications(_ delivery: Notifier.Delivery) {
        let count = Int64(delivery.notifications.count)
        switch delivery.outcome {
        case .sent: notificationsSent.increment(by: count)
        case .failed: notificationsFailed.increment(by: count)
        case .dropped: notificationsDropped.increment(by: count)
        }
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
            var panels: [String: PanelSeries] = [:]
            for panel in snapshot.panels {
                let kind = Kind(group: panel.group ?? "", source: kinds[panel.id] ?? "code")
                var series = state.panels[panel.id].flatMap { $0.kind == kind ? $0 : nil } ?? PanelSeries(kind: kind)
                series.isUp = Self.isUp(panel)
                series.isLoading = panel.isLoading
                panels[panel.id] = series
            }
            state.panels = panels
            state.order = snapshot.panels.map(\.id)
        }
    }

    /// The metrics in Prometheus' text format.
    func exposition() -> [UInt8] {
        streamsOpen.set(to: Double(hub.subscriberCount))
        let published = hub.publishedCount
        let newEvents = state.withLock { state in
            defer { state.eventsCounted = max(state.eventsCounted, published) }
            return published > state.eventsCounted ? published - state.eventsCounted : 0
        }
        if newEvents > 0 { events.increment(by: Int64(newEvents)) }
        // The counters are counted under the same lock as the gauges change, so one scrape never
        // shows a panel up again before its transition is counted.
        return state.withLock { state in
            var text = registry.emitToBuffer()
            Self.writePanelGauges(of: state, to: &text)
            return text
        }
    }

    /// Each panel's gauges, a family at a time, in Prometheus' text format.
    private static func writePanelGauges(of state: State, to text: inout [UInt8]) {
        let families: [(name: String, help: String, value: (PanelSeries) -> Double?)] = [
            ("panel_up", "1 when the panel's source is up, 0 when down, NaN before its first result.",
             { $0.isUp.map { $0 ? 1 : 0 } ?? .nan }),
            ("panel_loading", "1 while the panel shows loading.", { $0.isLoading ? 1 : 0 }),
            ("panel_load_duration_seconds", "How long the panel's newest load ran.",
             { $0.lastDuration.map { $0 / .seconds(1) } }),
        ]
        for family in families {
            text.append(contentsOf: "# HELP statedeck_\(family.name) \(family.help)\n# TYPE statedeck_\(family.name) gauge\n".utf8)
            for id in state.order {
                guard let series = state.panels[id], let value = family.value(series) else { continue }
                text.append(contentsOf: "statedeck_\(family.name){panel=\"".utf8)
                appendLabelValue(id, to: &text)
                text.append(contentsOf: "\",group=\"".utf8)
                appendLabelValue(series.kind.group, to: &text)
                text.append(contentsOf: "\",source=\"".utf8)
                appendLabelValue(series.kind.source, to: &text)
                text.append(contentsOf: "\"} \(value.isNaN ? "NaN" : "\(value)")\n".utf8)
            }
        }
    }

    /// A label value escaped as the text format asks: backslash, double quote and line feed.
    private static func appendLabelValue(_ value: String, to text: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): text.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\""): text.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\n"): text.append(contentsOf: #"\n"#.utf8)
            default: text.append(byte)
            }
        }
    }

    private func apply(_ event: DeckEvent, generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            switch event {
            case .panel(let panel) where !panel.debugPinned:
                guard var series = state.panels[panel.id] else { return }
                series.isLoading = panel.isLoading
                let isUp = Self.isUp(panel)
                if let isUp, let wasUp = series.isUp, isUp != wasUp {
                    let counters = kindSeries(series.kind, in: &state)
                    (isUp ? counters.toUp : counters.toDown).increment()
                }
                series.isUp = isUp ?? series.isUp
                if let attempt = panel.retry?.attempt, attempt != series.retryAttempt {
                    kindSeries(series.kind, in: &state).retries.increment()
                }
                series.retryAttempt = panel.retry?.attempt
                state.panels[panel.id] = series
            case .change(let change) where change.cause != .debug:
                guard let series = state.panels[change.panel] else { return }
                if let duration = change.duration {
                    state.panels[change.panel]?.lastDuration = duration
                    kindSeries(series.kind, in: &state).durations.record(duration)
                }
                if case .error(let error) = change.state, change.cause.isResult {
                    failures(of: error.kind, kind: series.kind, in: &state).increment()
                }
            default:
                break
            }
        }
    }

    /// The panel's health as a gauge's truth: nil before its first result.
    private static func isUp(_ panel: PanelState) -> Bool? {
        switch panel.health {
        case .up: true
        case .down: false
        case .loading, .unknown: nil
        }
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
