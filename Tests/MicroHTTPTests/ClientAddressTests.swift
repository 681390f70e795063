import MicroHTTP
import TestSupport
import Testing

/// A request's `client`: the connection's peer as libmicrohttpd reports it, IPv4 or IPv6, an
/// IPv4-mapped IPv6 address read as IPv4; and how an address is written.
@Suite struct ClientAddressTests {
    @Test func addressesAreWrittenAsRFC5952Says() throws {
        #expect(ClientAddress(bytes: [192, 0, 2, 7])?.description == "192.0.2.7")
        #expect(ClientAddress(bytes: [UInt8](repeating: 0, count: 15) + [1])?.description == "::1")
        #expect(ClientAddress(bytes: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1])?.description == "2001:db8::1")
        #expect(ClientAddress(bytes: [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])?.description == "2001:db8:0:1:0:1:0:1")
        #expect(ClientAddress(bytes: [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2])?.description == "fe80::1:0:0:2")
        let mapped = try #require(ClientAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 7]))
        #expect(mapped == ClientAddress(bytes: [192, 0, 2, 7]))
        #expect(!mapped.isIPv6)
        #expect(ClientAddress(bytes: [1, 2, 3]) == nil)
    }
}

extension Live {
    @Suite struct ClientAddressLiveTests {
        /// Answers with the request's client address.
        private var router: Router {
            var router = Router()
            router.on(.get, "/client") { request, _ in
                .response(.json(.ok, Array("\"\(request.client?.description ?? "none")\"".utf8)))
            }
            return router
        }

        @Test(arguments: ["127.0.0.1", "::1"])
        func theRequestCarriesItsPeersAddress(host: String) throws {
            try withServer({ $0.host = host }, responder: router) { _, port in
                let response = try HTTPTestClient.request("GET", "/client", port: port, host: host)
                #expect(response.text == "\"\(host)\"")
            }
        }
    }
}
