import CMicroHTTPD

/// A libmicrohttpd response (`struct MHD_Response *`) that we hold one reference to.
struct ResponseHandle {
    let pointer: OpaquePointer

    /// A response with a copy of `bytes` (`MHD_create_response_from_buffer`, `MUST_COPY`).
    init?(bytes: [UInt8]) {
        let created = bytes.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        pointer = created
    }

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Adds each header (`MHD_add_response_header`); returns the names libmicrohttpd refused.
    func add(_ headers: HTTPHeaders) -> [String] {
        headers.filter { MHD_add_response_header(pointer, $0.name, $0.value) != .YES }.map(\.name)
    }

    /// Drops our reference (`MHD_destroy_response`); a queued response lives on until sent.
    func release() {
        MHD_destroy_response(pointer)
    }
}
