import Foundation
import TestSupport
import Testing

/// `--store URL`: a PostgreSQL history, refused at start with status 2 when the URL cannot be used,
/// without ever printing a password.
@Suite struct StoreOptionTests {
    /// A page folder of its own, so that start-up gets as far as opening the history.
    private final class PageFolder: Sendable {
        let path = FileManager.default.temporaryDirectory.path + "/statedeck-store-\(UUID().uuidString)"

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data("<!doctype html><title>x</title>\n".utf8).write(to: URL(fileURLWithPath: path + "/index.html"))
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Runs `statedeck --store url` serving a page folder of its own.
    private static func start(store url: String) async throws -> StatedeckBinary.Run {
        let page = try PageFolder()
        let run = try await StatedeckBinary.run(["--store", url, "--port", "0", "--public", page.path])
        withExtendedLifetime(page) {}
        return run
    }

    @Test func aUrlWithAPasswordIsStatus2NamingWhereThePasswordGoesAndNeverPrintingIt() async throws {
        let run = try await Self.start(store: "postgres://deck:s3cret-pw@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("127.0.0.1:9/history"), "\(run.standardError)")
        #expect(run.standardError.contains("PGPASSWORD"))
        #expect(run.standardError.contains("PGPASSFILE"))
        #expect(!run.standardError.contains("s3cret-pw"))
        #expect(!run.standardOutput.contains("s3cret-pw"))
        #expect(!run.standardOutput.contains("serving"))
    }

    @Test func anUnreachableServerIsStatus2NamingIt() async throws {
        let run = try await Self.start(store: "postgresql://deck@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot connect to PostgreSQL at 127.0.0.1:9/history"), "\(run.standardError)")
    }

    @Test func storeWithDataIsRefused() async throws {
        let run = try await StatedeckBinary.run(["--store", "postgres://deck@127.0.0.1:9/history", "--data", "none"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--store and --data"), "\(run.standardError)")
    }

    @Test func anotherSchemeIsRefused() async throws {
        let run = try await Self.start(store: "mysql://deck@127.0.0.1:9/history")
        #expect(run.status == 2)
        #expect(run.standardError.contains("postgres:// or postgresql://"), "\(run.standardError)")
    }
}
