import FoundationEssentials
import MicroHTTP

extension APIRoutes {
    /// `GET /api/state?format=fixture`: the moment the state document shows, as a fixture file to
    /// download (``DeckFixture``), named after its instant.
    ///
    /// The fixture is made from a state document's bytes and its instant alone, so a document of
    /// another instant (`at=`, rebuilt from the history) makes one the same way.
    func stateDownload(format: String) -> HTTPResponse {
        guard format == "fixture" else {
            return .apiError(.badRequest, code: "bad_request", message: "format: the state document comes as fixture or as JSON (no format)")
        }
        return Self.fixtureDownload(stateDocument: mirror.stateDocument().bytes, at: deck().configuration.now())
    }

    /// The fixture of `stateDocument` at `at`, as an attachment.
    static func fixtureDownload(stateDocument: [UInt8], at: Date) -> HTTPResponse {
        let fixture: DeckFixture
        do {
            fixture = try DeckFixture(stateDocument: stateDocument, at: at)
        } catch {
            return .apiError(.internalServerError, code: "internal", message: "the state document makes no fixture: \(error)")
        }
        var response = HTTPResponse.json(.ok, body: .bytes(fixture.encoded()))
        response.headers.add("Cache-Control", "no-store")
        response.headers.add("Content-Disposition", "attachment; filename=\"\(fixture.fileName)\"")
        return response
    }
}
