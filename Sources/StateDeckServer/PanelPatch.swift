import FoundationEssentials
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
    /// The states' fields, read straight: a patch compares every field of two states at each check.
    let old: PanelState.Fields?
    let new: PanelState.Fields

    /// The fields of `new` that `old` lacks; every non-default field when `old` is nil.
    init(from old: PanelState?, to new: PanelState) {
        self.old = old?.fields
        self.new = new.fields
    }

    /// What a patch says beyond the panel's id.
    enum Content {
        /// Its measurements alone: a load whose result is the one shown. Sent to no stream.
        case measurements
        /// Its measurements and a heartbeat's newest ping (`lastPing`, `lastRun`, `lateAt`): a
        /// ping that shows what the panel shows. Sent, but no change a moment keeps.
        case ping
        /// A change of what the panel shows.
        case change
    }

    /// What the patch says, found in one pass over the fields.
    var content: Content {
        guard let old else { return .change }
        var content = Content.measurements
        for field in Self.fields where !field.isMeasurement && !field.isUnchanged(old, new) {
            guard field.key == .heartbeat, old.heartbeat.map(Self.standing) == new.heartbeat.map(Self.standing) else {
                return .change
            }
            content = .ping
        }
        return content
    }

    /// Whether the patch says nothing beyond the panel's id and its measurements.
    var isEmpty: Bool { content == .measurements }

    /// `status` without its newest ping.
    private static func standing(_ status: HeartbeatStatus) -> HeartbeatStatus {
        var standing = status
        (standing.lastPing, standing.lastRun, standing.lateAt) = (nil, nil, nil)
        return standing
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
        let isUnchanged: @Sendable (PanelState.Fields, PanelState.Fields) -> Bool
        let isDefault: @Sendable (PanelState.Fields) -> Bool
        let encode: @Sendable (PanelState.Fields, inout KeyedEncodingContainer<CodingKeys>) throws -> Void
        let write: @Sendable (PanelState.Fields, JSONBytesEncoder.Writer) throws -> Void
        /// A measurement travels with every patch but makes none alone.
        var isMeasurement = false

        // Fields are read through functions (key path literals become them), not `KeyPath`
        // values, whose generic projection cost more than the comparison.

        /// `read`, written under `key`; its default is `defaultValue`.
        static func value<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> Value, default defaultValue: Value
        ) -> Field {
            Field(
                key: key,
                isUnchanged: { read($0) == read($1) },
                isDefault: { read($0) == defaultValue },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { try $1.write(read($0)) }
            )
        }

        /// A value, or null, written by `write` without the `Encoder` layers.
        static func straight<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> Value?, default defaultValue: Value?,
            write: @escaping @Sendable (Value, JSONBytesEncoder.Writer) -> Void
        ) -> Field {
            Field(
                key: key,
                isUnchanged: { read($0) == read($1) },
                isDefault: { read($0) == defaultValue },
                encode: { try $1.encode(read($0), forKey: key) },
                write: { state, writer in
                    if let value = read(state) { write(value, writer) } else { writer.literal("null") }
                }
            )
        }

        /// A string, or null, written straight.
        static func text(_ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> String?, default defaultValue: String?) -> Field {
            straight(key, read, default: defaultValue) { $1.string($0) }
        }

        /// A measurement, null by default.
        static func measurement<Value: Encodable & Equatable & Sendable>(
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> Value?
        ) -> Field {
            var field = value(key, read, default: nil)
            field.isMeasurement = true
            return field
        }

        /// A flag, false by default.
        static func flag(_ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> Bool) -> Field {
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
            _ key: CodingKeys, _ read: @escaping @Sendable (PanelState.Fields) -> Value?,
            shownBy shown: @escaping @Sendable (PanelState.Fields) -> Value?
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
        // Written straight: it travels with every ping.
        .straight(.heartbeat, \.heartbeat, default: nil) { $0.write(to: $1) },
        .value(.maintenance, \.maintenance, default: nil),
        .value(.dependsOn, \.dependsOn, default: []),
        .value(.probableCauses, \.probableCauses, default: []),
        .value(.flapping, \.flapping, default: nil),
    ]
}

private extension HeartbeatStatus {
    /// Writes what `encode(to:)` writes, member by member.
    func write(to writer: JSONBytesEncoder.Writer) {
        let level = writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        writer.startMember("expects", in: level)
        writer.string(expects)
        writer.startMember("graceMs", in: level)
        writer.literal(String(graceMs))
        writer.startMember("hasPingURL", in: level)
        writer.literal(hasPingURL ? "true" : "false")
        func time(_ key: String, _ time: Date?) {
            writer.startMember(key, in: level)
            if let time { writer.string(DeckJSON.timestamp(time)) } else { writer.literal("null") }
        }
        time("lastPing", lastPing)
        time("lastRun", lastRun)
        time("runningSince", runningSince)
        time("lateAt", lateAt)
        writer.close(to: level)
    }
}

private extension PanelState.Fields {
    /// When the newest state began, as the page's "since 10:42" says it.
    var since: String? {
        history.last.map { DeckJSON.timestamp($0.at) }
    }
}
