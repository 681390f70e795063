extension EventHub {
    /// The headers of an event-stream response: the media type, no caching, and no buffering by
    /// a reverse proxy (nginx honours `X-Accel-Buffering`), so each event leaves at once.
    public static let responseHeaders: [(name: String, value: String)] = [
        (name: "Content-Type", value: "text/event-stream; charset=utf-8"),
        (name: "Cache-Control", value: "no-store"),
        (name: "X-Accel-Buffering", value: "no"),
    ]
}
