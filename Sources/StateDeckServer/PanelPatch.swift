import StateDeck

/// A panel's state as the stream and the state document carry it: the fields that differ from
/// what the page already holds, so that a change of a typical http panel is a few hundred bytes
/// instead of the whole state with its 50-entry history.
///
/// Against `nil` (a panel the page does not hold yet, or a snapshot) every field that differs
/// from its default is written: null, false, the deck's default presentation and empty values are
/// left out. Against an earlier state every field that changed is written, a field that became
/// null as null. Three fields never travel, because the page rebuilds them from the others:
///
/// | left out | the page sets it to |
/// | --- | --- |
/// | `latestInfo` while `latestValidInfo` is not null | `latestValidInfo`: the newest result is the newest info |
/// | `latestError` while `latestValidError` is not null | `latestValidError` |
/// | `latestNonLoading` | `{"info": latestValidInfo}`, else `{"error": latestValidError}`, else null |
///
/// `history` stays on `GET /api/panels/{id}`; the stream carries only `since`, when the newest
/// state began.
struct PanelPatch: Encodable {
    let old: PanelState?
    let new: PanelState

    /// The fields of `new` that `old` lacks; every non-default field when `old` is nil.
    init(from old: PanelState?, to new: PanelState) {
        self.old = old
        self.new = new
    }

    /// Whether the patch says nothing beyond the panel's id.
    var isEmpty: Bool {
        guard let old else { return false }
        return Self.fields.allSatisfy { $0.isUnchanged(old, new) }
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, group, phase, since, isInitialLoading, isLoading, latestValidInfo, latestInfo
        case latestValidError, latestError, modifyingIds, presentation, placeholder, retry, debugPinned, stale
        case restored
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(new.id, forKey: .id)
        for field in Self.fields where old.map({ !field.isUnchanged($0, new) }) ?? !field.isDefault(new) {
            try field.encode(new, &container)
        }
    }

    /// One field of the state: how it compares, what its default is and how it is written.
    private struct Field: Sendable {
        let isUnchanged: @Sendable (PanelState, PanelState) -> Bool
        let isDefault: @Sendable (PanelState) -> Bool
        let encode: @Sendable (PanelState, inout KeyedEncodingContainer<CodingKeys>) throws -> Void

        /// `path`, written under `key`; its default is `defaultValue`.
        static func value<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ path: KeyPath<PanelState, Value> & Sendable, default defaultValue: Value
        ) -> Field {
            Field(
                isUnchanged: { $0[keyPath: path] == $1[keyPath: path] },
                isDefault: { $0[keyPath: path] == defaultValue },
                encode: { try $1.encode($0[keyPath: path], forKey: key) }
            )
        }

        /// The newest info or error, which travels only while the valid one is null.
        static func newest<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ path: KeyPath<PanelState, Value?> & Sendable,
            shownBy valid: KeyPath<PanelState, Value?> & Sendable
        ) -> Field {
            Field(
                isUnchanged: { old, new in new[keyPath: valid] != nil || old[keyPath: path] == new[keyPath: path] },
                isDefault: { $0[keyPath: valid] != nil || $0[keyPath: path] == nil },
                encode: { try $1.encode($0[keyPath: path], forKey: key) }
            )
        }
    }

    private static let fields: [Field] = [
        .value(.title, \.title, default: ""),
        .value(.group, \.group, default: nil),
        .value(.phase, \.phase, default: .initial),
        .value(.since, \.since, default: nil),
        .value(.isInitialLoading, \.isInitialLoading, default: false),
        .value(.isLoading, \.isLoading, default: false),
        .value(.latestValidInfo, \.latestValidInfo, default: nil),
        .newest(.latestInfo, \.latestInfo, shownBy: \.latestValidInfo),
        .value(.latestValidError, \.latestValidError, default: nil),
        .newest(.latestError, \.latestError, shownBy: \.latestValidError),
        .value(.modifyingIds, \.modifyingIds, default: nil),
        .value(.presentation, \.presentation, default: Presentation()),
        .value(.placeholder, \.placeholder, default: nil),
        .value(.retry, \.retry, default: nil),
        .value(.debugPinned, \.debugPinned, default: false),
        .value(.stale, \.stale, default: false),
        .value(.restored, \.restored, default: false),
    ]
}

private extension PanelState {
    /// When the newest state began, as the page's "since 10:42" says it.
    var since: String? {
        history.last.map { DeckJSON.timestamp($0.at) }
    }
}
