import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A libmicrohttpd connection (`struct MHD_Connection *`).
///
/// Sendable because libmicrohttpd allows `MHD_resume_connection` from any thread; everything
/// else here is only called on the polling thread that owns the connection.
struct Connection: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Stops polling the connection (`MHD_suspend_connection`). Only from the access handler or
    /// the content reader, on libmicrohttpd's thread.
    func suspend() {
        MHD_suspend_connection(pointer)
    }

    /// Polls the connection again (`MHD_resume_connection`). Any thread, but only while it is
    /// suspended: libmicrohttpd leaves the call undefined otherwise. Callers hold the lock of
    /// the stream or request that suspended it; that is safe because libmicrohttpd never calls
    /// back into us while holding the mutex this takes.
    func resume() {
        MHD_resume_connection(pointer)
    }

    /// Queues the answer (`MHD_queue_response`); false if libmicrohttpd refused it.
    func queue(_ response: ResponseHandle, status: HTTPStatus) -> Bool {
        MHD_queue_response(pointer, UInt32(status.rawValue), response.pointer) == .YES
    }

    /// The first value of the request header `name` (`MHD_lookup_connection_value_n`,
    /// case-insensitive), read in full even if it holds a NUL; nil if the request has none.
    func requestHeader(_ name: StaticString) -> String? {
        lookUpHeader(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the first value of the request header `name` is, byte for byte, one of `values`:
    /// asked with no string made of the value, which costs more than the comparison.
    func requestHeader(_ name: StaticString, isOneOf values: [String]) -> Bool {
        guard let value = lookUpHeader(name), let start = value.baseAddress else { return false }
        return values.contains { candidate in
            var candidate = candidate
            return candidate.withUTF8 { bytes in
                bytes.count == value.count && bytes.baseAddress.map { memcmp($0, start, bytes.count) == 0 } ?? false
            }
        }
    }

    /// Whether the request frames a body (`Content-Length` or `Transfer-Encoding`), asked with no
    /// string made of either value.
    var requestFramesBody: Bool {
        lookUpHeader("Content-Length") != nil || lookUpHeader("Transfer-Encoding") != nil
    }

    private func lookUpHeader(_ name: StaticString) -> UnsafeRawBufferPointer? {
        var value: UnsafePointer<CChar>?
        var size = 0
        let found = name.withUTF8Buffer { key in
            key.withMemoryRebound(to: CChar.self) {
                MHD_lookup_connection_value_n(pointer, .HEADER_KIND, $0.baseAddress, key.count, &value, &size)
            }
        }
        guard found == .YES, let value else { return nil }
        return UnsafeRawBufferPointer(start: value, count: size)
    }

    /// The bytes of the request's head, request line and header fields, as received
    /// (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`).
    var requestHeadSize: Int {
        statedeck_connection_head_size(pointer)
    }

    /// Where the connection comes from (`MHD_get_connection_info`, `MHD_CONNECTION_INFO_CLIENT_ADDRESS`);
    /// nil for a family other than IPv4 and IPv6.
    var clientAddress: ClientAddress? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = Int(statedeck_connection_client_address(pointer, &bytes))
        return ClientAddress(bytes: Array(bytes.prefix(count)))
    }

    /// The connection's socket (`MHD_get_connection_info`, `MHD_CONNECTION_INFO_CONNECTION_FD`).
    var socket: Int32 {
        statedeck_connection_socket(pointer)
    }
}
