import EventStream

/// Where a server's events go to be numbered and sent: its own hub, or a store that several
/// servers share, which numbers each event once and hands it to every server's hub.
public protocol EventRelay: Sendable {
    /// Sends `event` with `data`; `panel` names the panel a `panel` event is about. `data` is
    /// made only if the relay sends it (the copies a store feeds make their own `snapshot` documents).
    func relay(event: String, data: @autoclosure () -> String, panel: String?)
}

extension EventHub: EventRelay {
    public func relay(event: String, data: @autoclosure () -> String, panel: String?) {
        publish(event: event, data: data())
    }
}
