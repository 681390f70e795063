import StateDeck

/// A history store whose queue, thread and trouble observers are a ``HistoryWriter``'s: what it
/// does with them is the writer's, the same for every backend.
public protocol WriterBackedHistoryStore: HistoryStore {
    var writer: HistoryWriter { get }
}

extension WriterBackedHistoryStore {
    public func record(_ change: PanelChange) {
        writer.record(change)
    }

    public func trackEventIDs(_ newest: @escaping @Sendable () -> UInt64) {
        writer.trackEventIDs(newest)
    }

    public var trouble: PanelError? { writer.trouble }

    public func observeTrouble(_ observer: @escaping @Sendable (PanelError?) -> Void) {
        writer.observeTrouble(observer)
    }
}
