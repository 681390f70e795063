import Foundation
@testable import StateDeckSources

/// Network namespaces of a test's own, so that loss, unreachable hosts and missing routes
/// are made on the machine and never reach a host outside it. The pinging side, `client`
/// (10.77.0.1, no default route, any group allowed ICMP datagram sockets), is joined by a veth
/// pair to a bridge in `peer`, where a host of its own namespace answers at 10.77.0.2, one never
/// answers a ping at 10.77.0.3 (it ignores echo requests), one at 10.77.0.4 answers only the
/// first ping of a burst (echo replies rate-limited to one a minute), and nothing answers at
/// 10.77.0.9.
///
/// A socket opened from a thread that joined `client` (`setns`) stays in it, so the probe loop,
/// whose thread is in the test process's own namespace, pings from inside.
final class PingNetwork: @unchecked Sendable {
    let client: String
    private let namespaces: [String]

    static let answering = 2, silent = 3, rateLimited = 4, absent = 9

    init() throws {
        let prefix = "sdping\(getpid())x\(PingNetwork.counter.next())"
        client = prefix + "c"
        let peer = prefix + "p"
        // Each host: its namespace, its number on the subnet, and its settings.
        let hosts = [
            (prefix + "a", Self.answering, [String]()),
            (prefix + "s", Self.silent, ["net.ipv4.icmp_echo_ignore_all=1"]),
            // Echo replies (type 0, bit 0) rate-limited to one a minute.
            (prefix + "l", Self.rateLimited, ["net.ipv4.icmp_ratemask=6169", "net.ipv4.icmp_ratelimit=60000"]),
        ]
        namespaces = [client, peer] + hosts.map(\.0)
        do {
            for namespace in namespaces { try Self.run("ip", "netns", "add", namespace) }
            try inside(peer, "ip", "link", "add", "sdbridge", "type", "bridge")
            try inside(peer, "ip", "link", "set", "sdbridge", "up")
            for (namespace, host, settings) in [(client, 1, ["net.ipv4.ping_group_range=0 2147483647"])] + hosts {
                // veth ends are named after the namespace's last letter: unique within the test.
                let end = "eth" + String(namespace.last!)
                try Self.run("ip", "link", "add", end, "netns", namespace, "type", "veth", "peer", "name", end, "netns", peer)
                try inside(peer, "ip", "link", "set", end, "master", "sdbridge", "up")
                try inside(namespace, "ip", "addr", "add", "\(subnet).\(host)/24", "dev", end)
                try inside(namespace, "ip", "link", "set", end, "up")
                try inside(namespace, "ip", "link", "set", "lo", "up")
                for setting in settings { try inside(namespace, "sysctl", "-qw", setting) }
            }
            // A host that does not answer ARP is declared unreachable after one probe of 100 ms.
            try inside(client, "sysctl", "-qw", "net.ipv4.neigh.ethc.mcast_solicit=1", "net.ipv4.neigh.ethc.retrans_time_ms=100")
        } catch {
            close()
            throw error
        }
    }

    private let subnet = "10.77.0"

    /// "10.77.0.host".
    func address(_ host: Int) -> String { "\(subnet).\(host)" }

    /// Echo channels whose sockets are opened inside `client`, of the first of `kinds` allowed.
    func channels(kinds: [EchoSocket.Kind]) throws -> EchoChannels {
        var sockets: [Int32: EchoSocket] = [:]
        for family in [AF_INET, AF_INET6] {
            sockets[family] = try openInside(client) { EchoSocket.open(family: family, kinds: kinds, identifier: 0x5D5D) }.get()
        }
        let opened = sockets
        return EchoChannels { family in opened[family].map { .success($0) } ?? .failure(EchoSocket.Refusal(message: "none")) }
    }

    func close() {
        for namespace in namespaces { try? Self.run("ip", "netns", "del", namespace) }
    }

    /// What `open` gives, called on a thread of its own that joined `namespace` first.
    private func openInside<Value: Sendable>(_ namespace: String, _ open: @escaping @Sendable () -> Value) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Value, NamespaceError>?
        let thread = Thread {
            let descriptor = Glibc.open("/var/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
            if descriptor >= 0, Self.setns(descriptor, Self.newNetworkNamespace) == 0 {
                result = .success(open())
            } else {
                result = .failure(NamespaceError(message: "setns into \(namespace): \(String(cString: strerror(errno)))"))
            }
            if descriptor >= 0 { Glibc.close(descriptor) }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result!.get()
    }

    /// `setns(2)`, which Glibc's module leaves out (it needs `_GNU_SOURCE`), and its
    /// `CLONE_NEWNET`.
    private static let setns = unsafeBitCast(dlsym(nil, "setns"), to: (@convention(c) (Int32, Int32) -> Int32).self)
    private static let newNetworkNamespace: Int32 = 0x4000_0000

    private func inside(_ namespace: String, _ arguments: String...) throws {
        try Self.run(["ip", "netns", "exec", namespace] + arguments)
    }

    private static func run(_ arguments: String...) throws {
        try run(arguments)
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw NamespaceError(message: "\(arguments.joined(separator: " ")): \(said)")
        }
    }

    struct NamespaceError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
