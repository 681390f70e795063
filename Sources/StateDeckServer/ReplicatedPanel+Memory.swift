import FoundationEssentials
import StateDeck

extension ReplicatedPanel {
    /// What the panel showed, read back from its document: a server that starts to lead continues
    /// each panel from exactly what every page saw, newer than what the history saved (up to its
    /// writer's interval). Nil for a document that does not read as a panel's.
    var memory: PanelMemory? {
        guard let shown = try? Self.decoder.decode(ShownDocument.self, from: Data(document)) else { return nil }
        return PanelMemory(entries: shown.history, latestInfo: shown.latestInfo,
                           latestError: shown.latestError.map(PanelError.init(card:)), shown: shown.viewState,
                           stale: shown.stale, health: shown.health)
    }

    /// Reads the deck's JSON: timestamps as ``DeckJSON/timestamp(_:)`` writes them.
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        return decoder
    }()
}

/// The fields of a `PanelState` document a panel's memory is made of.
private struct ShownDocument: Decodable {
    struct Outcome: Decodable {
        var info: Info?
        var error: ErrorCard?
    }

    var history: [ViewStateHistory.Entry]
    var phase: ViewState.Phase
    var latestInfo: Info?
    var latestError: ErrorCard?
    var latestNonLoading: Outcome?
    var stale: Bool
    var health: Health

    /// What the panel showed: its state, or while it loaded, the result before.
    var viewState: ViewState? {
        switch phase {
        case .loaded: latestInfo.map(ViewState.loaded)
        case .error: latestError.map { .error(PanelError(card: $0)) }
        case .loading: latestNonLoading.flatMap { $0.info.map(ViewState.loaded) ?? $0.error.map { .error(PanelError(card: $0)) } }
        case .initial: nil
        }
    }
}

extension PanelError {
    /// The error a card was presented from, as far as its words tell (the running deck's recovery
    /// handlers are not in a card).
    init(card: ErrorCard) {
        self.init(card.kind, title: card.title, message: card.description, failureReason: card.failureReason,
                  recoverySuggestion: card.recoverySuggestion, detail: card.detail)
    }
}
