/// One thing that happens in a simulated world: time passing, a source changing, a fault. A run
/// is a list of them, made from a seed (``Scenario``); shrinking removes steps from the list.
public enum SimulationStep: Sendable, Hashable, CustomStringConvertible {
    /// Time passes (both clocks), with the deck loading and the history saving as they do.
    case pass(Duration)
    /// Panel `panel`'s source starts answering well, or failing.
    case source(panel: Int, up: Bool)
    /// The process is killed (`kill -9`): nothing not yet committed survives; it starts again at once.
    case kill
    /// The process stops cleanly and starts again.
    case restart
    /// The wall clock moves by this much (back when negative); the monotonic clock runs on.
    case jump(Duration)
    /// The deck file is edited without panel `panel`, or with it again.
    case remove(panel: Int)
    case add(panel: Int)
    /// The deck file is edited: panel `panel`'s title changed, or changed back.
    case rename(panel: Int)
    /// The deck file is edited: the panels put in two groups, or out of them again.
    case regroup
    /// The deck file is edited: every other panel made to depend on the first, or on none.
    case dependencies
    /// The deck file is edited: each panel's `notify:` lists these targets (``SimulatedTarget/names``),
    /// in this order.
    case notify([Int])
    /// A maintenance window is started by hand over panel `panel`, for `minutes`.
    case maintenance(panel: Int, minutes: Int)
    /// The disk refuses every write from now on, or takes them again.
    case disk(full: Bool)
    /// How the notify target takes deliveries from now on.
    case target(TargetMood)
    /// Everything a user can read is compared with the model.
    case check

    public var description: String {
        switch self {
        case .pass(let duration): "pass \(Self.text(duration))"
        case .source(let panel, let up): "source p\(panel) \(up ? "up" : "down")"
        case .kill: "kill -9"
        case .restart: "restart"
        case .jump(let duration): "wall clock \(duration < .zero ? "-" : "+")\(Self.text(duration < .zero ? .zero - duration : duration))"
        case .remove(let panel): "remove p\(panel)"
        case .add(let panel): "add p\(panel)"
        case .rename(let panel): "rename p\(panel)"
        case .regroup: "regroup"
        case .dependencies: "dependencies"
        case .notify(let targets): "notify [\(targets.map { SimulatedTarget.names[$0] }.joined(separator: ", "))]"
        case .maintenance(let panel, let minutes): "maintenance p\(panel) for \(minutes)m"
        case .disk(let full): full ? "disk full" : "disk writable"
        case .target(let mood): "target \(mood.rawValue)"
        case .check: "check"
        }
    }

    /// How a notify target takes a delivery.
    public enum TargetMood: String, Sendable, Hashable {
        /// At once.
        case answering
        /// It refuses it at once.
        case failing
        /// It holds it, answering only once it answers or fails again; a process that ends
        /// meanwhile never hears back.
        case hanging
    }

    /// "3d 4h 5m 6s", the largest units first, zero units left out.
    static func text(_ duration: Duration) -> String {
        var seconds = duration.components.seconds
        var parts: [String] = []
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where seconds >= size {
            parts.append("\(seconds / size)\(unit)")
            seconds %= size
        }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
