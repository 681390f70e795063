extension Result where Failure == any Error {
    /// The value `body` returns or the error it throws.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
