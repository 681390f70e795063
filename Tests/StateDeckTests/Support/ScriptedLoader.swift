import Foundation
@testable import StateDeck

/// A loader that answers from a script, one entry per call (the last one repeats), and counts calls.
final class ScriptedLoader: @unchecked Sendable {
    private let lock = NSLock()
    private var script: [Result<Info, PanelError>]
    private var calls = 0

    init(_ script: Result<Info, PanelError>...) {
        self.script = script
    }

    init(script: [Result<Info, PanelError>]) {
        self.script = script
    }

    var callCount: Int { lock.withLock { calls } }

    func load() throws -> Info {
        try lock.withLock {
            calls += 1
            return script.count > 1 ? script.removeFirst() : script[0]
        }.get()
    }
}
