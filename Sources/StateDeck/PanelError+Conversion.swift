import FoundationEssentials

extension PanelError {
    /// The panel error for anything a loader throws: a ``PanelError`` as it is, a cancellation as
    /// a timeout (loads are cancelled when they run out of time), anything else as `unknown`.
    ///
    /// A `LocalizedError` keeps its words on the card: `errorDescription` is the card's text,
    /// `failureReason` and `recoverySuggestion` are shown as they are. Any error's own description
    /// is the detail.
    public init(_ error: any Error) {
        switch error {
        case let error as PanelError:
            self = error
        case is CancellationError:
            self.init(.timeout, detail: "The load was cancelled before it answered.")
        case let error as LocalizedError:
            self.init(.unknown, message: error.errorDescription, failureReason: error.failureReason,
                      recoverySuggestion: error.recoverySuggestion, detail: String(describing: error))
        default:
            self.init(.unknown, detail: String(describing: error))
        }
    }
}
