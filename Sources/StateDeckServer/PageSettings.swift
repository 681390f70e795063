import StateDeck

/// What the server decides about drawing that the page needs before any panel tells it: sent in
/// the state document (`settings`), so the page keeps no copy that could disagree.
struct PageSettings: Encodable {
    /// The longest the stream stays silent while idle; a page hearing nothing for longer treats
    /// its stream as dead.
    var pingIntervalMs: Int
    /// How long toasts stay and where the page draws them.
    var toast: ToastSettings
    /// The kinds the debug dialog offers, in the catalogue's order.
    var errorKinds: [ErrorKind]
    /// The presentations a panel gets when its declaration names none.
    var presentation: Presentation
    /// Every presentation type with its default options, for a presentation sent without some.
    var presentationTypes: [LoadingPresentation]

    struct ToastSettings: Encodable {
        var durationMs: Int
        var position: Toast.Position
    }

    init(pingInterval: Duration, deck: Deck.Configuration) {
        pingIntervalMs = Int(pingInterval / .milliseconds(1))
        toast = ToastSettings(durationMs: Int(deck.toastDuration / .milliseconds(1)), position: deck.toastPosition)
        errorKinds = ErrorKind.allCases
        presentation = Presentation()
        presentationTypes = LoadingPresentation.typeDefaults
    }
}
