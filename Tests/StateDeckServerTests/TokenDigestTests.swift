import StateDeck
@testable import StateDeckServer
import Testing

/// SHA-256 against FIPS 180-4's examples (and NIST's long-message vector), the digests' text
/// form, and the base64url of generated tokens (RFC 4648's vectors).
@Suite struct TokenDigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func fipsExamples(message: String, digest: String) {
        #expect(Self.hex(SHA256.digest(Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        #expect(Self.hex(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Messages whose padding ends exactly at a block's end, or spills into a second block.
    @Test func paddingAtBlockEdges() {
        #expect(Self.hex(SHA256.digest([UInt8](repeating: 0x61, count: 55))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(Self.hex(SHA256.digest([UInt8](repeating: 0x61, count: 56))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(Self.hex(SHA256.digest([UInt8](repeating: 0x61, count: 64))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test func aDigestReadsBackAndNothingElseReadsAsOne() throws {
        let digest = TokenDigest(of: "abc")
        #expect(digest.description == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let parsed = try #require(TokenDigest(parsing: digest.description.uppercased().replacingOccurrences(of: "SHA256", with: "sha256")))
        #expect(parsed.matches(digest))
        #expect(!TokenDigest(of: "abd").matches(digest))
        for text in ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256:", "sha256:abc",
                     "sha256:" + String(repeating: "g", count: 64), "SHA256:" + String(repeating: "a", count: 64),
                     "sha256:" + String(repeating: "a", count: 65), AccessToken.generate().description] {
            #expect(TokenDigest(parsing: text) == nil, "\(text)")
        }
    }

    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func base64URLVectors(bytes: String, text: String) {
        #expect(AccessToken.base64URL(Array(bytes.utf8)) == text)
    }

    @Test func generatedTokensAre43URLSafeCharacters() {
        #expect(AccessToken.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
        let tokens = (0..<20).map { _ in AccessToken.generate().description }
        #expect(Set(tokens).count == 20)
        for token in tokens {
            #expect(token.utf8.count == 43 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
    }
}
