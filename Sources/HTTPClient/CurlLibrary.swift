import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libcurl's functions, loaded once, when the first request needs them (`statedeck_curl_load`:
/// `dlopen`, `dlsym`, `curl_global_init`). Not linking libcurl keeps it and the libraries it
/// brings (about 5.6 MB resident) out of a StateDeck whose deck has no http source.
enum CurlLibrary {
    static let api: Result<statedeck_curl_api, HTTPClientError> = {
        // Uninitialized until loaded: the table's function pointers cannot be null in Swift.
        let table = UnsafeMutablePointer<statedeck_curl_api>.allocate(capacity: 1)
        defer { table.deallocate() }
        guard statedeck_curl_load(table) != 0 else {
            let why = dlerror().map { String(cString: $0) } ?? "curl_global_init failed"
            return .failure(HTTPClientError(.other, message: "libcurl cannot be loaded: \(why)"))
        }
        return .success(table.pointee)
    }()
}

/// Function pointers, set once by `statedeck_curl_load` and never changed.
extension statedeck_curl_api: @unchecked @retroactive Sendable {}
