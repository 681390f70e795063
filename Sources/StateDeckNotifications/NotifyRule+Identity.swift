import StateDeck

extension NotifyRule {
    /// What decides an outage, as text the same in every process and every version (a Swift hash
    /// is seeded at each start): what a `notify:` entry's digest takes of its rule. `gather` is
    /// left out: it groups the messages, and a window edited keeps every outage.
    /// "failures 3, down -, successes 1, remind -".
    var identity: String {
        func text(_ duration: Duration) -> String {
            "\(duration.components.seconds)s\(duration.components.attoseconds)as"
        }
        let remind = remind.map { "\(text($0.every))x\($0.times)" } ?? "-"
        return "failures \(failures.map(String.init) ?? "-"), down \(down.map(text) ?? "-"), successes \(successes), "
            + "remind \(remind)"
    }
}
