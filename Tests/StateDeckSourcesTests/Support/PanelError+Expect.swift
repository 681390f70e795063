import StateDeck
import Testing

/// The panel error `load` throws, or nil (recorded as an issue) when it loads or throws another error.
func panelError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ load: () async throws -> Info
) async -> PanelError? {
    do {
        let info = try await load()
        Issue.record("loaded instead of failing: \(info)", sourceLocation: sourceLocation)
    } catch let error as PanelError {
        return error
    } catch {
        Issue.record("threw \(error) instead of a PanelError", sourceLocation: sourceLocation)
    }
    return nil
}
