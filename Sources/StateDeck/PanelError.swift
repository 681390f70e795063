import FoundationEssentials

/// A typed error a loader throws, in the spirit of `LocalizedError` and `RecoverableError`:
/// copy for the error card, detail for debugging and the recovery options it offers.
public struct PanelError: Error, LocalizedError, Sendable, Equatable {
    public var kind: ErrorKind
    /// The card's heading; the kind's by default.
    public var title: String
    /// The card's body text; the kind's by default.
    public var message: String
    public var failureReason: String?
    public var recoverySuggestion: String?
    /// Technical detail for debugging, such as a status line or a command's standard error.
    public var detail: String?
    /// When the service said to come back (HTTP `Retry-After`), for maintenance.
    public var retryAfter: Duration?
    /// Options offered before the panel's own, such as ``RecoveryOption/freeSpace(_:)``.
    public var recoveryOptions: [RecoveryOption]

    /// An error of `kind`, with the catalogue's copy unless given.
    public init(
        _ kind: ErrorKind,
        title: String? = nil,
        message: String? = nil,
        failureReason: String? = nil,
        recoverySuggestion: String? = nil,
        detail: String? = nil,
        retryAfter: Duration? = nil,
        recoveryOptions: [RecoveryOption] = []
    ) {
        self.kind = kind
        self.title = title ?? kind.title
        self.message = message ?? kind.message
        self.failureReason = failureReason
        self.recoverySuggestion = recoverySuggestion
        self.detail = detail
        self.retryAfter = retryAfter
        self.recoveryOptions = recoveryOptions
    }

    /// The card's heading, for code that speaks `LocalizedError`.
    public var errorDescription: String? { title }
}
