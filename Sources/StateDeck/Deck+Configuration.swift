import FoundationEssentials
import Threading

extension Deck {
    /// What a deck takes from its surroundings: time, randomness, toast settings, limits and the
    /// flapping rule.
    public struct Configuration: Sendable {
        /// Every wait of the deck (schedules, timeouts, retries, minimum loading time, toast
        /// expiry) goes through it; a test clock makes them instant and exact.
        public var clock: any Clock<Duration>
        /// The wall time recorded in history entries and retry times.
        public var now: @Sendable () -> Date
        /// A number in `0..<1` for retry jitter.
        public var random: @Sendable () -> Double
        /// How long a toast stays (4 s): the page's timer, and the snapshot's expiry.
        public var toastDuration: Duration
        /// Where the page draws toasts.
        public var toastPosition: Toast.Position
        /// The most text a loaded `Info` may hold (64 KiB, see ``Info/textSize``): a loader
        /// answering more gets an invalid-response card naming the limit instead of sending it
        /// to every stream with each change. A panel state carries its info up to three times
        /// (`latestValidInfo`, `latestInfo`, `latestNonLoading`), so this bounds every event.
        public var maximumInfoSize = 64 << 10
        /// The most items a loaded `Info` may list (1,000): more is not a panel, it is a report.
        public var maximumInfoItems = 1_000
        /// The shortest time between the starts of two loads of one panel asked for by hand
        /// (1 s): a retry sooner than that joins one load at the floor, so no client can
        /// hammer a source by clicking or scripting retries.
        public var manualLoadFloor: Duration = .seconds(1)
        /// The name of the place this deck checks its panels from, among the places of a panel
        /// checked from several (``PanelState/locations``): ``ownLocation`` unless a probe or
        /// server names it.
        public var location = Configuration.ownLocation
        /// When a panel is flapping (more than 5 changes of health in 10 min); nil turns it off.
        public var flapping: FlappingRule? = FlappingRule()
        /// Where each incident opened, updated or resolved is told (a deck file's `incidents.notify`).
        public var incidentTargets: [any NotificationTarget] = []

        /// The name of a server's own place among a panel's locations.
        public static let ownLocation = "local"

        /// Production defaults: the alarm clock (continuous time, sleeps on one alarm thread), the system's wall time and randomness.
        public init(
            clock: any Clock<Duration> = AlarmClock(),
            now: @escaping @Sendable () -> Date = { Date() },
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
            toastDuration: Duration = .seconds(4),
            toastPosition: Toast.Position = .top
        ) {
            self.clock = clock
            self.now = now
            self.random = random
            self.toastDuration = toastDuration
            self.toastPosition = toastPosition
        }
    }
}
