/// The messages of gRPC's standard health service, `grpc.health.v1.Health/Check`, written and
/// read by hand: a request is one string field, an answer one enum field, a few bytes either way,
/// so no protobuf library is needed.
enum GRPCHealthCheck {
    /// The path of the call, which HTTP/2 posts to.
    static let path = "/grpc.health.v1.Health/Check"

    /// `HealthCheckResponse.ServingStatus`.
    enum ServingStatus: UInt64 {
        case unknown = 0
        case serving = 1
        case notServing = 2
        /// Only `Watch` should answer it; a server that answers `Check` with it does not know the service.
        case serviceUnknown = 3

        /// Its name in the health service's definition.
        var name: String {
            switch self {
            case .unknown: "UNKNOWN"
            case .serving: "SERVING"
            case .notServing: "NOT_SERVING"
            case .serviceUnknown: "SERVICE_UNKNOWN"
            }
        }
    }

    /// A call's body: the 5-byte frame header (not compressed, the length, big-endian) and
    /// `HealthCheckRequest { string service = 1; }`, whose empty service (the server as a whole)
    /// is written as nothing at all.
    static func requestBody(service: String) -> [UInt8] {
        let name = Array(service.utf8)
        let message = name.isEmpty ? [] : [0x0A] + varint(UInt64(name.count)) + name
        let length = UInt32(message.count)
        return [0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + message
    }

    /// The status of an answer's body, one frame of `HealthCheckResponse { ServingStatus status = 1; }`:
    /// `unknown` when the field is missing (protobuf's default), nil when the body is not one
    /// uncompressed frame of a message, or the status is not one of the four.
    static func servingStatus(in body: [UInt8]) -> ServingStatus? {
        guard body.count >= 5, body[0] == 0 else { return nil }
        let length = body[1...4].reduce(0) { $0 << 8 | Int($1) }
        guard body.count == 5 + length else { return nil }
        var reader = FieldReader(bytes: body[5...])
        var status: UInt64 = 0
        while !reader.isAtEnd {
            guard let tag = reader.varint() else { return nil }
            switch (tag >> 3, tag & 7) {
            case (1, 0):
                guard let value = reader.varint() else { return nil }
                status = value
            case (_, 0): guard reader.varint() != nil else { return nil }
            case (_, 1): guard reader.skip(8) else { return nil }
            case (_, 2): guard let count = reader.varint(), reader.skip(Int(clamping: count)) else { return nil }
            case (_, 5): guard reader.skip(4) else { return nil }
            default: return nil
            }
        }
        return ServingStatus(rawValue: status)
    }

    /// `value` as a protobuf varint: seven bits a byte, the lowest first, the high bit set on all
    /// but the last.
    static func varint(_ value: UInt64) -> [UInt8] {
        var rest = value
        var bytes: [UInt8] = []
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }

    /// Reads a message's varints and skips the fields it does not need.
    private struct FieldReader {
        var bytes: ArraySlice<UInt8>

        var isAtEnd: Bool { bytes.isEmpty }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                guard let byte = bytes.popFirst() else { return nil }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            return nil
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count <= bytes.count else { return false }
            bytes = bytes.dropFirst(count)
            return true
        }
    }
}
