/// A `NOTIFY` heard on a channel this session `LISTEN`s to (`PGnotify`).
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    /// The server process that sent it (`be_pid`): a session hears its own notifications too.
    public var senderPID: Int32
}
