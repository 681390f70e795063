import TestSupport
import Testing

/// Request targets that try to leave `Public/`, sent raw so no client normalizes them.
enum TraversalCorpus {
    static let targets = [
        // Plain and encoded dot segments.
        "/../etc/passwd",
        "/../../../../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E/%2E%2E/etc/passwd",
        "/.%2e/.%2e/etc/passwd",
        "/%2e%2e%2fetc%2fpasswd",
        "/..%2f..%2fetc/passwd",
        "/dir/..%2f..%2f..%2fetc/passwd",
        "/dir/%2e%2e/%2e%2e/etc/passwd",
        "/dir/../../etc/passwd",
        "/index.html/../../etc/passwd",
        "/api/../../etc/passwd",
        "/%2fetc%2fpasswd",
        "//etc/passwd",
        "/....//",
        "/....//etc/passwd",
        "/..;/etc/passwd",
        // Double encoding: decoded once, `%2e` stays literal.
        "/%252e%252e/etc/passwd",
        "/%252e%252e%252fetc%252fpasswd",
        // Backslashes, raw and encoded.
        "/..\\..\\etc\\passwd",
        "/%5c..%5cetc%5cpasswd",
        "/..%5c..%5cetc/passwd",
        // NUL and malformed escapes.
        "/index.html%00.js",
        "/dir/file.svg%00/../../etc/passwd",
        "/%u002e%u002e/etc/passwd",
        "/%%32%65%%32%65/etc/passwd",
        "/%2",
        // Overlong UTF-8 for `.` and `/`.
        "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
        "/..%c0%af..%c0%afetc/passwd",
        "/%e0%80%ae%e0%80%ae/etc/passwd",
        // What the manifest leaves out: dotfiles and symbolic links (to a file outside the
        // folder, to /etc/passwd, to /etc).
        "/.secret",
        "/%2esecret",
        "/./.secret",
        "/dir/../.secret",
        "/outside.txt",
        "/passwd",
        "/etc/passwd",
        "/etc/",
        // Dot segments before a real file are not resolved either.
        "/./index.html",
        "/dir/../index.html",
        // Absolute-form (its authority must name this server) and neither form.
        "http://x/../etc/passwd",
        "http://127.0.0.1/../../etc/passwd",
        "../etc/passwd",
        "*",
    ]
}

extension Live {
    @Suite struct TraversalTests {
        @Test func corpusHasTwentyOrMoreAttempts() {
            #expect(TraversalCorpus.targets.count >= 20)
            #expect(Set(TraversalCorpus.targets).count == TraversalCorpus.targets.count)
        }

        @Test func noTargetEscapesThePublicFolder() async throws {
            try await LiveServer.run { server in
                for target in TraversalCorpus.targets {
                    let response = try await server.raw("GET", target: target)
                    #expect([400, 403, 404].contains(response.status), "\(target) answered \(response.status)")
                    #expect(!response.text.contains(PublicFolder.forbiddenMarker), "\(target) leaked: \(response.text)")
                    #expect(!response.text.contains("-secret"), "\(target) leaked: \(response.text)")
                }
                // The folder is still served as usual.
                #expect(try await server.get("/index.html").status == 200)
            }
        }

        @Test func headAndPostCannotEscapeEither() async throws {
            try await LiveServer.run { server in
                for method in ["HEAD", "POST"] {
                    for target in ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/passwd", "/.secret", "/outside.txt"] {
                        let response = try await server.request(method, target)
                        #expect([400, 404].contains(response.status), "\(method) \(target) answered \(response.status)")
                        #expect(!response.text.contains(PublicFolder.forbiddenMarker))
                    }
                }
            }
        }
    }
}
