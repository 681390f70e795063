import Foundation

extension Deck {
    /// What a deck takes from its surroundings: time, randomness and toast settings.
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

        /// Production defaults: the continuous clock, the system's wall time and randomness.
        public init(
            clock: any Clock<Duration> = ContinuousClock(),
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
