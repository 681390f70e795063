import FoundationEssentials
import StateDeck

/// What a panel showed, as the process running the deck hands it to every server with the panel's documents: the
/// member that leads next continues the panel from it, which is newer than what the history saved
/// (up to its writer's interval). A record of its own, made from the panel's state, not the page's
/// document read back: the page's format may change without touching a failover.
struct ExportedMemory: Codable, Equatable {
    var history: [ViewStateHistory.Entry]
    /// What it showed: its valid info, else its valid error.
    var info: Info?
    var error: ErrorCard?
    var latestInfo: Info?
    var latestError: ErrorCard?
    var stale: Bool
    var health: Health
    /// When a heartbeat's newest run ended, in milliseconds since 1970.
    var lastRunMs: Int64?
    /// Its flapping count (``FlapRecord``), in milliseconds since 1970: the changes of health
    /// counted and when flapping began. Absent from a record of an older StateDeck.
    var flapChangesMs: [Int64]?
    var flappingSinceMs: Int64?

    /// `state` with the flapping count `flaps`, which the state does not carry.
    init(_ state: PanelState, flaps: FlapRecord = FlapRecord()) {
        history = state.history
        switch state.latestNonLoading {
        case .info(let shown): info = shown
        case .error(let shown): error = shown
        case nil: break
        }
        latestInfo = state.latestInfo
        latestError = state.latestError
        stale = state.stale
        health = state.health
        lastRunMs = state.heartbeat?.lastRun.map(Self.milliseconds)
        flapChangesMs = flaps.changes.map(Self.milliseconds)
        flappingSinceMs = flaps.since.map(Self.milliseconds)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The panel's memory, as a deck restores it.
    var memory: PanelMemory { memory(restored: true) }

    /// The panel's memory, saying `restored` until its first new result or not.
    func memory(restored: Bool) -> PanelMemory {
        let shown = info.map(ViewState.loaded) ?? error.map { ViewState.error(PanelError(card: $0)) }
        return PanelMemory(entries: history, latestInfo: latestInfo, latestError: latestError.map(PanelError.init(card:)),
                           shown: shown, stale: stale, health: health, lastRun: lastRunMs.map(Self.date), restored: restored,
                           flaps: FlapRecord(changes: (flapChangesMs ?? []).map(Self.date), since: flappingSinceMs.map(Self.date)))
    }

    /// The record as an exported panel carries it.
    var encoded: [UInt8] {
        (try? JSONEncoder().encode(self)).map { Array($0) } ?? []
    }
}

extension ExportedPanel {
    /// What the panel showed, from the record it carries; nil for none (a panel exported by an
    /// older StateDeck, or one that never showed anything).
    var memory: PanelMemory? { record?.memory }

    /// The record it carries, read; nil for none.
    var record: ExportedMemory? {
        guard !memoryRecord.isEmpty else { return nil }
        return try? ExportedMemory.decoder.decode(ExportedMemory.self, from: Data(memoryRecord))
    }
}

extension ExportedMemory {
    /// Reads times as the deck writes them (``DeckJSON/timestamp(_:)``, which entries use).
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try ISO8601Time.parse(text)
        }
        return decoder
    }()
}

extension PanelError {
    /// The error a card was presented from, as far as its words tell (the running deck's recovery
    /// handlers are not in a card).
    init(card: ErrorCard) {
        self.init(card.kind, title: card.title, message: card.description, failureReason: card.failureReason,
                  recoverySuggestion: card.recoverySuggestion, detail: card.detail)
    }
}
