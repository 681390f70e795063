/// Why a command could not be started, in words for the error card, with the `errno` behind it.
struct LaunchFailure: Error {
    let reason: String
    let code: Int32
}

extension CommandResult {
    /// The result of a command that never ran.
    init(launchFailure failure: LaunchFailure) {
        self.init(
            termination: .launchFailed(reason: failure.reason, code: failure.code),
            standardOutput: "",
            standardError: "",
            outputTruncated: false,
            duration: .zero
        )
    }
}
