import StateDeck

/// The errors several sources share, with the same wording everywhere.
extension PanelError {
    static func refused(_ host: String, _ port: Int, detail: String?) -> PanelError {
        PanelError(.unreachable, failureReason: "Nothing accepts connections at \(host):\(port).", detail: detail)
    }

    static func unresolved(_ host: String, detail: String?) -> PanelError {
        PanelError(.unreachable, failureReason: "The name \(host) does not resolve.", detail: detail)
    }

    /// The closest sign of "no network" a connection attempt gives.
    static func noRoute(_ host: String, detail: String?) -> PanelError {
        PanelError(.noNetwork, failureReason: "There is no route to \(host).", detail: detail)
    }

    static func connectFailed(_ host: String, _ port: Int, detail: String?) -> PanelError {
        PanelError(.unreachable, failureReason: "The connection to \(host):\(port) failed.", detail: detail)
    }

    static func timedOut(after timeout: Duration, detail: String?) -> PanelError {
        PanelError(.timeout, failureReason: "No answer within \(timeout.shortText).", detail: detail)
    }
}
