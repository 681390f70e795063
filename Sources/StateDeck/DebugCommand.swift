/// A state forced on a panel to design, review and test it, whatever its source does.
///
/// Every command but ``live`` pins the panel: its scheduled loads and automatic retries pause and
/// the result of a load in flight is discarded. Forced results toast like real ones.
public enum DebugCommand: Sendable, Equatable {
    case loading
    /// The given info, else the panel's placeholder, else ``Info/sample``.
    case loaded(Info?)
    /// An error of the given kind (`unknown` when nil), with the catalogue's copy.
    case error(ErrorKind?)
    /// Empties the history, as ``ViewStateHistory/reset()``.
    case reset
    /// Sets the items with an action in flight; an empty list clears them.
    case modifyingIds([String])
    /// Unpins the panel and loads it for real.
    case live
}
