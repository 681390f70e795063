import Foundation
import TestSupport

/// A loopback port whose listener accepts one connection and closes it at once, sending
/// `greeting` first: a server that hangs up on a client, or speaks another protocol.
final class ClosingListener: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(greeting: String = "") throws {
        let (listener, port) = try LoopbackListener.listen()
        self.listener = listener
        self.port = Int(port)
        Thread {
            let client = accept(listener, nil, nil)
            _ = greeting.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            _ = Glibc.close(client)
        }.start()
    }

    func close() {
        _ = Glibc.close(listener)
    }
}
