/// A way out of an error, offered as a button on the error card.
///
/// ``tryAgain`` and ``cancel`` are run by the deck (a manual retry; dismissing the card). Other
/// options run their handler: returning means it worked, throwing that it failed.
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
    let work: Work

    private init(id: String, label: String, role: ActionRole, message: String? = nil, work: Work) {
        self.id = id
        self.label = label
        self.role = role
        self.message = message
        self.work = work
    }

    /// Loads the panel again, as a manual retry.
    public static let tryAgain = RecoveryOption(id: "try-again", label: "Try again", role: .primary, work: .retry)

    /// Dismisses the card: the panel shows its last info marked stale, or its initial state.
    public static let cancel = RecoveryOption(id: "cancel", label: "Dismiss", role: .cancel, work: .dismiss)

    /// "Free space" (primary), running `handler`.
    public static func freeSpace(_ handler: @escaping Handler) -> RecoveryOption {
        custom("free-space", "Free space", role: .primary, handler)
    }

    /// "Buy more space" (secondary), running `handler`.
    public static func buyMoreSpace(_ handler: @escaping Handler) -> RecoveryOption {
        custom("buy-space", "Buy more space", role: .secondary, handler)
    }

    /// An option that runs `handler`, such as a configured command; the panel reloads once it
    /// worked, and `message` (or "<label>: done") is the toast.
    public static func custom(
        _ id: String,
        _ label: String,
        role: ActionRole = .secondary,
        message: String? = nil,
        _ handler: @escaping Handler
    ) -> RecoveryOption {
        RecoveryOption(id: id, label: label, role: role, message: message, work: .run(handler))
    }
}

extension RecoveryOption: Equatable {
    /// Options are equal when they show the same button; handlers are not compared.
    public static func == (lhs: RecoveryOption, rhs: RecoveryOption) -> Bool {
        lhs.id == rhs.id && lhs.label == rhs.label && lhs.role == rhs.role
    }
}
