import Foundation
import Locking
import StateDeck
import Testing
@testable import StateDeckServer

/// The panel patches of PROTOCOL.md's "Panels on the wire", encoded without a server.
@Suite struct PanelPatchTests {
    static let start = Date(timeIntervalSince1970: 1_795_341_600)
    static let info = Info(summary: "HTTP 200", fields: [Info.Field("Status", "200"), Info.Field("Version", "1.2.3")])

    /// The state of an http-like panel `api-0042` after the debug commands `steps`, each a second
    /// after the one before.
    static func state(after steps: [DebugCommand]) async throws -> PanelState {
        let seconds = Locked(0.0)
        let configuration = Deck.Configuration(now: { start.addingTimeInterval(seconds.withLock { $0 += 1; return $0 }) })
        let panel = Panel("api-0042", title: "API 42") { info }.group(PanelGroup("backend"))
        let deck = Deck("Patches", configuration: configuration, panels: [panel])
        var state = try await deck.panelState(panel.id)
        for step in steps { state = try await deck.debug(step, panel: panel.id) }
        return state
    }

    func json(_ patch: PanelPatch) throws -> [String: Any] {
        let bytes = try DeckJSON.makeEncoder().encode(patch)
        return try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    }

    func size(_ patch: PanelPatch) throws -> Int {
        try DeckJSON.makeEncoder().encode(patch).count
    }

    @Test func theCompactFormLeavesOutDefaultsTheHistoryAndWhatRepeats() async throws {
        let loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        let compact = try json(PanelPatch(from: nil, to: loaded))
        #expect(Set(compact.keys) == ["id", "title", "group", "phase", "health", "latestValidInfo", "since", "debugPinned"])
        #expect(try size(PanelPatch(from: nil, to: loaded)) < 300)
    }

    @Test func dependenciesCausesAndFlappingTravelOnlyWhenSet() async throws {
        let failed = try await Self.state(after: [.loading, .error(.timeout)])
        var caused = failed
        caused.dependsOn = ["db"]
        caused.probableCauses = ["db"]
        caused.flapping = FlappingStatus(since: Self.start, changes: 6, within: "10 min")
        let compact = try json(PanelPatch(from: nil, to: caused))
        #expect(compact["dependsOn"] as? [String] == ["db"])
        #expect(compact["probableCauses"] as? [String] == ["db"])
        let flapping = try #require(compact["flapping"] as? [String: Any])
        #expect(flapping["since"] as? String == "2026-11-22T10:00:00.000Z")
        #expect(flapping["changes"] as? Int == 6)
        #expect(flapping["within"] as? String == "10 min")
        #expect(try json(PanelPatch(from: nil, to: failed)).keys.allSatisfy { !["dependsOn", "probableCauses", "flapping"].contains($0) })
        var calm = caused
        calm.probableCauses = []
        calm.flapping = nil
        let patch = try json(PanelPatch(from: caused, to: calm))
        #expect(Set(patch.keys) == ["id", "probableCauses", "flapping"])
        #expect(patch["probableCauses"] as? [String] == [])
        #expect(patch["flapping"] is NSNull)
    }

    @Test func aChangeCarriesOnlyWhatChanged() async throws {
        let loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        let reloading = try await Self.state(after: [.loading, .loaded(Self.info), .loading])
        let toLoading = try json(PanelPatch(from: loaded, to: reloading))
        #expect(Set(toLoading.keys) == ["id", "phase", "isLoading", "since"])
        #expect(toLoading["isLoading"] as? Bool == true)
        let newInfo = Info(summary: "HTTP 200", fields: [Info.Field("Status", "200"), Info.Field("Version", "1.2.4")])
        let reloaded = try await Self.state(after: [.loading, .loaded(Self.info), .loading, .loaded(newInfo)])
        let toLoaded = PanelPatch(from: reloading, to: reloaded)
        #expect(Set(try json(toLoaded).keys) == ["id", "phase", "isLoading", "latestValidInfo", "since"])
        // With its SSE framing (`event: panel`, a 16-digit id, `data: `), still under 300 bytes.
        #expect(try size(toLoaded) + 45 < 300)
    }

    @Test func theLoadTimeMakesNoPatchAloneAndTravelsWithEveryOther() async throws {
        var loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        loaded.loadMs = 4
        var measured = loaded
        measured.loadMs = 6
        #expect(PanelPatch(from: loaded, to: measured).isEmpty, "a load whose result is the one shown sends no event")
        var reloading = try await Self.state(after: [.loading, .loaded(Self.info), .loading])
        reloading.loadMs = 6
        let toLoading = try json(PanelPatch(from: measured, to: reloading))
        #expect(toLoading["loadMs"] as? Int == 6, "unchanged since the held state, carried all the same")
        #expect(try json(PanelPatch(from: nil, to: measured))["loadMs"] as? Int == 6)
        let reset = try await Self.state(after: [.loading, .loaded(Self.info), .reset])
        #expect(reset.loadMs == nil)
        #expect(try json(PanelPatch(from: measured, to: reset))["loadMs"] is NSNull, "a reset clears it")
        #expect(try json(PanelPatch(from: nil, to: reset))["loadMs"] == nil, "the compact form leaves out null")
    }

    @Test func aChangeOfAnotherPlaceCarriesOnlyTheLocationsAndTheirLine() async throws {
        let loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        var checked = loaded
        checked.locations = [PanelLocation(name: "local", health: .up), PanelLocation(name: "eu-west", health: .down)]
        checked.locationsSummary = "Down from eu-west only"
        let toChecked = try json(PanelPatch(from: loaded, to: checked))
        #expect(Set(toChecked.keys) == ["id", "locations", "locationsSummary"])
        #expect(toChecked["locationsSummary"] as? String == "Down from eu-west only")
        #expect(PanelPatch(from: checked, to: checked).isEmpty)
        let back = try json(PanelPatch(from: checked, to: loaded))
        #expect(Set(back.keys) == ["id", "locations", "locationsSummary"])
        #expect(back["locations"] is NSNull, "gone: null, so the page draws no locations")
        #expect(try json(PanelPatch(from: nil, to: loaded))["locations"] == nil, "the compact form leaves them out")
    }

    @Test func aFieldThatBecameNullIsSentAsNullAndTheNewestInfoTravelsOnlyAlone() async throws {
        let loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        let failed = try await Self.state(after: [.loading, .loaded(Self.info), .error(.timeout)])
        let patch = try json(PanelPatch(from: loaded, to: failed))
        #expect(patch["latestValidInfo"] is NSNull, "the info shown is gone")
        #expect(patch["latestInfo"] == nil, "the newest info did not change")
        #expect((patch["latestValidError"] as? [String: Any])?["kind"] as? String == "timeout")
        #expect(patch["latestError"] == nil, "it repeats the valid error")
        #expect(patch["latestNonLoading"] == nil)
        let reset = try await Self.state(after: [.loading, .loaded(Self.info), .reset])
        #expect(try json(PanelPatch(from: loaded, to: reset))["latestInfo"] is NSNull, "a reset clears the newest info")
    }

    /// The bytes of `value` through its `Encodable` form, as any value is encoded.
    func throughEncodable<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        try JSONBytesEncoder().encode(value)
    }

    @Test func writtenStraightItIsWhatItsEncodableFormWrites() async throws {
        let steps: [DebugCommand] = [.loading, .loaded(Self.info), .modifyingIds(["a", "b"]), .loading,
                                     .error(.timeout), .loaded(nil), .reset, .live]
        var states = [try await Self.state(after: [])]
        for count in 1...steps.count {
            states.append(try await Self.state(after: Array(steps.prefix(count))))
        }
        var patches = states.map { PanelPatch(from: nil, to: $0) }
        patches += zip(states, states.dropFirst()).map { PanelPatch(from: $0, to: $1) }
        for patch in patches {
            let straight = String(decoding: try JSONBytesEncoder().encode(patch), as: UTF8.self)
            #expect(straight == String(decoding: try throughEncodable(patch), as: UTF8.self))
        }
        // Every kind of member is among them: strings, null, flags, objects and a list.
        let all = try patches.map { String(decoding: try JSONBytesEncoder().encode($0), as: UTF8.self) }.joined()
        for member in [#""title":"API 42""#, #""group":"backend""#, #":null"#, #""isLoading":true"#,
                       #""latestValidError":{"#, #""modifyingIds":["a","b"]"#] {
            #expect(all.contains(member), "\(member)")
        }
    }

    /// A heartbeat's ping that shows what the panel shows moves only its ping times: a patch that
    /// is sent but keeps no moment form. Its status is written straight as its `Encodable` form.
    @Test func aPingThatShowsWhatIsShownIsAPingPatch() async throws {
        let seconds = Locked(0.0)
        let deck = Deck("Pings", configuration: Deck.Configuration(now: { Self.start.addingTimeInterval(seconds.current) }),
                        panels: [Panel("job", title: #"The "nightly" job"#, heartbeat: .every(.seconds(3_600), grace: .seconds(600)))])
        let waiting = try await deck.panelState("job")
        try await deck.ping(panel: "job", .success, body: "ok")
        let first = try await deck.panelState("job")
        seconds.withLock { $0 = 60 }
        try await deck.ping(panel: "job", .success, body: "ok")
        let second = try await deck.panelState("job")
        try await deck.ping(panel: "job", .start, body: "")
        let started = try await deck.panelState("job")
        #expect(PanelPatch(from: waiting, to: first).content == .change)
        #expect(PanelPatch(from: first, to: second).content == .ping)
        #expect(PanelPatch(from: second, to: started).content == .change, "a start is a change")
        #expect(PanelPatch(from: second, to: second).content == .measurements)
        for patch in [PanelPatch(from: nil, to: second), PanelPatch(from: first, to: second), PanelPatch(from: second, to: started)] {
            #expect(try JSONBytesEncoder().encode(patch) == throughEncodable(patch))
        }
        let moved = String(decoding: try JSONBytesEncoder().encode(PanelPatch(from: first, to: second)), as: UTF8.self)
        #expect(moved.contains(#""lastPing":"2026-11-22T10:01:00.000Z""#), "\(moved)")
    }

    @Test func anUnchangedStateIsAnEmptyPatch() async throws {
        let loaded = try await Self.state(after: [.loading, .loaded(Self.info)])
        #expect(PanelPatch(from: loaded, to: loaded).isEmpty)
        #expect(!PanelPatch(from: nil, to: loaded).isEmpty)
    }
}
