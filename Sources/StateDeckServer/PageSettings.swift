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

    /// The timeline each panel draws, or nil when no history is kept (`--data none`).
    var history: HistorySettings?
    /// The names of the deck's notify targets, each once, that a test send may name.
    var notifyTargets: [NotifyTarget]

    struct NotifyTarget: Encodable {
        var name: String
    }

    struct HistorySettings: Encodable {
        var timelineSpanMs: Int
        var timelineSlots: Int
    }

    struct ToastSettings: Encodable {
        var durationMs: Int
        var position: Toast.Position
    }

    init(pingInterval: Duration, deck: Deck.Configuration, history: HistorySettings?, notifyTargets: [String]) {
        self.history = history
        var seen = Set<String>()
        self.notifyTargets = notifyTargets.filter { seen.insert($0).inserted }.map(NotifyTarget.init)
        pingIntervalMs = Int(pingInterval / .milliseconds(1))
        toast = ToastSettings(durationMs: Int(deck.toastDuration / .milliseconds(1)), position: deck.toastPosition)
        errorKinds = ErrorKind.allCases
        presentation = Presentation()
        presentationTypes = LoadingPresentation.typeDefaults
    }

    private enum CodingKeys: String, CodingKey {
        case pingIntervalMs, toast, errorKinds, presentation, presentationTypes, history, notifyTargets
    }

    /// Every field is written, `history` as null when it is off.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pingIntervalMs, forKey: .pingIntervalMs)
        try container.encode(toast, forKey: .toast)
        try container.encode(errorKinds, forKey: .errorKinds)
        try container.encode(presentation, forKey: .presentation)
        try container.encode(presentationTypes, forKey: .presentationTypes)
        try container.encode(history, forKey: .history)
        try container.encode(notifyTargets, forKey: .notifyTargets)
    }
}
