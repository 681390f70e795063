import FoundationEssentials

extension PanelError {
    /// The panel error for anything a loader throws: a ``PanelError`` as it is, a cancellation as
    /// a timeout (loads are cancelled when they run out of time), anything else as `unknown` with
    /// the error's own description as detail.
    public init(_ error: any Error) {
        switch error {
        case let error as PanelError:
            self = error
        case is CancellationError:
            self.init(.timeout, detail: "The load was cancelled before it answered.")
        default:
            self.init(.unknown, detail: (error as? LocalizedError)?.errorDescription ?? String(describing: error))
        }
    }
}
