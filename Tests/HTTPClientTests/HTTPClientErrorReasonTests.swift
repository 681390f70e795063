import CCurl
import Glibc
import Testing
@testable import HTTPClient

/// A connection libcurl could not make, told apart by the system's error (`CURLINFO_OS_ERRNO`).
@Suite("HTTPClientError.Reason")
struct HTTPClientErrorReasonTests {
    static let connectFailures: [(Int32, HTTPClientError.Reason)] = [
        (ECONNREFUSED, .refused), (ENETUNREACH, .noRoute), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
        (ENOENT, .noSocket), (ETIMEDOUT, .connectFailed),
    ]

    @Test(arguments: connectFailures)
    func aFailedConnectionSaysWhy(systemError: Int32, reason: HTTPClientError.Reason) {
        #expect(HTTPClientError.Reason(CURLE_COULDNT_CONNECT, systemError: systemError, verifyResult: 0) == reason)
    }
}
