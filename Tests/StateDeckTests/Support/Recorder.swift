import Foundation

/// Values appended from any thread, read by the test.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    var all: [Value] { lock.withLock { values } }
}
