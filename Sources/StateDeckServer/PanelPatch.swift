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
///
/// `loadMs` and `readings` are measurements, not changes: a patch that would say nothing else is
/// empty (a load whose result is the one shown sends no event), and every patch that is sent
/// carries them, so a page holds the newest measurements of each change whatever it missed
/// between them.
struct PanelPatch: Encodable {
    let old: PanelState?
    let new: PanelState

    /// The fields of `new` that `old` lacks; every non-default field when `old` is nil.
    init(from old: PanelState?, to new: PanelState) {
        self.old = old
        self.new = new
    }

    /// Whether the patch says nothing beyond the panel's id and its measurements.
    var isEmpty: Bool {
        guard let old else { return false }
        return Self.fields.allSatisfy { $0.isMeasurement || $0.isUnchanged(old, new) }
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, group, phase, health, since, isInitialLoading, isLoading, latestValidInfo, latestInfo
        case latestValidError, latestError, modifyingIds, presentation, placeholder, retry, debugPinned, stale
        case restored, queued, locations, locationsSummary, loadMs, readings, heartbeat, maintenance, dependsOn, probableCauses
        case flapping
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(new.id, forKey: .id)
        for field in Self.fields where travels(field) {
            try field.encode(new, &container)
        }
    }

    /// Writes what `encode(to:)` writes, straight into `writer`: its own members without the
    /// `Encoder` layers (a state document writes thousands of patches at once), nested values
    /// through them.
    func write(to writer: JSONBytesEncoder.Writer) throws {
        let level = writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        writer.startMember(CodingKeys.id.stringValue, in: level)
        writer.string(new.id)
        for field in Self.fields where travels(field) {
            writer.startMember(field.key.stringValue, in: level)
            try field.write(new, writer)
        }
        writer.close(to: level)
    }

    private func travels(_ field: Field) -> Bool {
        guard let old else { return !field.isDefault(new) }
        return !field.isUnchanged(old, new) || field.isMeasurement && !field.isDefault(new)
    }

    /// One field of the state: how it compares, what its default is and how it is written, through
    /// an `Encoder` or straight into a ``JSONBytesEncoder/Writer``.
    private struct Field: Sendable {
        let key: CodingKeys
        let isUnchanged: @Sendable (PanelState, PanelState) -> Bool
        let isDefault: @Sendable (PanelState) -> Bool
        let encode: @Sendable (PanelState, inout KeyedEncodingContainer<CodingKeys>) throws -> Void
        let write: @Sendable (PanelState, JSONBytesEncoder.Writer) throws -> Void
        /// A measurement travels with every patch but makes none alone.
        var isMeasurement = false

        // Fields are read through functions (key path literals become them), not `KeyPath`
        // values, whose generic projection cost more than the comparison.

        /// `read`, written under `key`; its default is `defaultValue`.
        static func value<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState) -> Value, default defaultValue: Value
        ) -> Field {
            Field(
                key: key,
                isUnchanged: { read($0) == read($1) },
                isDefault: { read($0) == defaultValue },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { try $1.write(read($0)) }
            )
        }

        /// A string, or null, written as a string without the `Encoder` layers.
        static func text(_ key: CodingKeys, _ read: @escaping @Sendable (PanelState) -> String?, default defaultValue: String?) -> Field {
            Field(
                key: key,
                isUnchanged: { read($0) == read($1) },
                isDefault: { read($0) == defaultValue },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { state, writer in
                    if let text = read(state) { writer.string(text) } else { writer.literal("null") }
                }
            )
        }

        /// A measurement, null by default.
        static func measurement<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState) -> Value?
        ) -> Field {
            var field = value(key, read, default: nil)
            field.isMeasurement = true
            return field
        }

        /// A flag, false by default.
        static func flag(_ key: CodingKeys, _ read: @escaping @Sendable (PanelState) -> Bool) -> Field {
            Field(
                key: key,
                isUnchanged: { read($0) == read($1) },
                isDefault: { !read($0) },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { state, writer in writer.literal(read(state) ? "true" : "false") }
            )
        }

        /// The newest info or error, which travels only while the valid one, `shown`, is null.
        static func newest<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState) -> Value?,
            shownBy shown: @escaping @Sendable (PanelState) -> Value?
        ) -> Field {
            Field(
                key: key,
                isUnchanged: { old, new in shown(new) != nil || read(old) == read(new) },
                isDefault: { shown($0) != nil || read($0) == nil },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { try $1.write(read($0)) }
            )
        }
    }

    private static let fields: [Field] = [
        .text(.title, \.title, default: ""),
        .text(.group, \.group, default: nil),
        .text(.phase, \.phase.rawValue, default: ViewState.Phase.initial.rawValue),
        .text(.health, \.health.name, default: Health.unknown.name),
        .text(.since, \.since, default: nil),
        .flag(.isInitialLoading, \.isInitialLoading),
        .flag(.isLoading, \.isLoading),
        .value(.latestValidInfo, \.latestValidInfo, default: nil),
        .newest(.latestInfo, \.latestInfo, shownBy: \.latestValidInfo),
        .value(.latestValidError, \.latestValidError, default: nil),
        .newest(.latestError, \.latestError, shownBy: \.latestValidError),
        .value(.modifyingIds, \.modifyingIds, default: nil),
        .value(.presentation, \.presentation, default: Presentation()),
        .value(.placeholder, \.placeholder, default: nil),
        .value(.retry, \.retry, default: nil),
        .flag(.debugPinned, \.debugPinned),
        .flag(.stale, \.stale),
        .flag(.restored, \.restored),
        .flag(.queued, \.queued),
        .value(.locations, \.locations, default: nil),
        .text(.locationsSummary, \.locationsSummary, default: nil),
        .measurement(.loadMs, \.loadMs),
        .measurement(.readings, \.readings),
        .value(.heartbeat, \.heartbeat, default: nil),
        .value(.maintenance, \.maintenance, default: nil),
        .value(.dependsOn, \.dependsOn, default: []),
        .value(.probableCauses, \.probableCauses, default: []),
        .value(.flapping, \.flapping, default: nil),
    ]
}

private extension PanelState {
    /// When the newest state began, as the page's "since 10:42" says it.
    var since: String? {
        history.last.map { DeckJSON.timestamp($0.at) }
    }
}
