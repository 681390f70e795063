import StateDeck

/// How a panel loads and shows loading: set for every panel by the deck file's `defaults`, and
/// overridden by a panel's own keys.
public struct PanelSettings: Sendable, Hashable {
    /// Every 30 s by default; a watched file also reloads when it changes.
    public var refresh: Panel.Refresh
    /// The default limit of the panel's source.
    public var timeout: Duration
    /// Automatic retries before an error card is shown.
    public var retry: RetryPolicy
    /// The shortest time `loading` is shown.
    public var minimumLoadingTime: Duration
    /// How each kind of loading is drawn.
    public var presentation: Presentation

    /// The settings of a deck file without `defaults`: the core's defaults.
    public init(
        refresh: Panel.Refresh = .every(.seconds(30)),
        timeout: Duration = .seconds(10),
        retry: RetryPolicy = RetryPolicy(),
        minimumLoadingTime: Duration = .milliseconds(500),
        presentation: Presentation = Presentation()
    ) {
        self.refresh = refresh
        self.timeout = timeout
        self.retry = retry
        self.minimumLoadingTime = minimumLoadingTime
        self.presentation = presentation
    }
}
