/// A way out of an error, offered as a button on the error card.
///
/// ``tryAgain``, ``checkAgain`` and ``cancel`` are run by the deck (a manual retry; dismissing the
/// card). Other options run their handler: returning means it worked, throwing that it failed.
/// An option scoped to some ``kinds`` is offered only on cards of those kinds.
public struct RecoveryOption: Sendable {
    public typealias Handler = @Sendable () async throws -> Void

    /// What choosing the option does.
    enum Work: Sendable {
        case retry
        case dismiss
        case run(Handler)
    }

    public let id: String
    public let label: String
    public let role: ActionRole
    /// The success toast's message, instead of "<label>: done".
    public let message: String?
    /// The error kinds whose cards offer it; nil offers it on every card.
    public let kinds: Set<ErrorKind>?
    let work: Work

    private init(
        id: String, label: String, role: ActionRole, message: String? = nil, kinds: Set<ErrorKind>? = nil,
        work: Work
    ) {
        self.id = id
        self.label = label
        self.role = role
        self.message = message
        self.kinds = kinds
        self.work = work
    }

    /// The id of the options that load the panel again (``tryAgain``, ``checkAgain``).
    public static let retryId = "try-again"

    /// "Try again" (primary): loads the panel again, as a manual retry.
    public static let tryAgain = retry(label: "Try again", role: .primary)

    /// "Check again" (secondary): the same retry, offered where the fix is elsewhere (credentials,
    /// a URL, an update) and a retry alone will not help.
    public static let checkAgain = retry(label: "Check again", role: .secondary)

    /// A manual retry with its own label and role, such as a deck's override of the catalogue's.
    public static func retry(label: String, role: ActionRole) -> RecoveryOption {
        RecoveryOption(id: retryId, label: label, role: role, work: .retry)
    }

    /// The id of the option that dismisses the card.
    public static let dismissId = "cancel"

    /// "Dismiss": the panel shows its last info marked stale, or its initial state.
    public static let cancel = dismiss(label: "Dismiss")

    /// The dismiss option with its own label.
    public static func dismiss(label: String) -> RecoveryOption {
        RecoveryOption(id: dismissId, label: label, role: .cancel, work: .dismiss)
    }

    /// "Free space" (primary) on out-of-space cards, running `handler`.
    public static func freeSpace(_ handler: @escaping Handler) -> RecoveryOption {
        custom("free-space", "Free space", role: .primary, kinds: [.outOfSpace], handler)
    }

    /// "Buy more space" (secondary) on out-of-space cards, running `handler`.
    public static func buyMoreSpace(_ handler: @escaping Handler) -> RecoveryOption {
        custom("buy-space", "Buy more space", role: .secondary, kinds: [.outOfSpace], handler)
    }

    /// An option that runs `handler`, such as a configured command; the panel reloads once it
    /// worked, and `message` (or "<label>: done") is the toast. With `kinds`, only cards of those
    /// kinds offer it.
    public static func custom(
        _ id: String,
        _ label: String,
        role: ActionRole = .secondary,
        message: String? = nil,
        kinds: Set<ErrorKind>? = nil,
        _ handler: @escaping Handler
    ) -> RecoveryOption {
        RecoveryOption(id: id, label: label, role: role, message: message, kinds: kinds, work: .run(handler))
    }

    /// Whether a card of `kind` offers it.
    public func fits(_ kind: ErrorKind) -> Bool {
        kinds?.contains(kind) ?? true
    }
}

extension RecoveryOption: Equatable {
    /// Options are equal when they show the same button on the same cards; handlers are not compared.
    public static func == (lhs: RecoveryOption, rhs: RecoveryOption) -> Bool {
        lhs.id == rhs.id && lhs.label == rhs.label && lhs.role == rhs.role && lhs.kinds == rhs.kinds
    }
}
