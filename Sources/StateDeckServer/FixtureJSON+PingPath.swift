import FoundationEssentials

extension FixtureJSON {
    /// A panel's compact form without the ping path its `heartbeat` held before StateDeck kept the
    /// ping's key from viewers: forms a history store kept then, and fixtures written then, say
    /// `hasPingURL` in its place as a form of now does. Any other value is returned as it is.
    var withoutPingPath: FixtureJSON {
        guard case .object(var panel) = self, case .object(var heartbeat)? = panel["heartbeat"],
              let path = heartbeat.removeValue(forKey: "pingPath") else { return self }
        heartbeat["hasPingURL"] = .bool(path != .null)
        panel["heartbeat"] = .object(heartbeat)
        return .object(panel)
    }

    /// `json`, a panel's compact form as a history store kept it, without a ping path: unchanged
    /// unless it names one, which only forms kept before the key left the state do.
    static func panelFormWithoutPingPath(_ json: String) -> String {
        guard json.contains(#""pingPath""#),
              let panel = try? JSONDecoder().decode(FixtureJSON.self, from: Data(json.utf8)) else { return json }
        return String(decoding: panel.withoutPingPath.bytes, as: UTF8.self)
    }
}
