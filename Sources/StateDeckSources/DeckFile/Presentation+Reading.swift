import StateDeck

extension Presentation {
    static let keys = ["initial", "afterInfo", "afterError"]

    /// This presentation with the keys of the mapping `node` applied.
    func overridden(by node: ConfigNode) -> Presentation {
        guard let map = node.mapping(allowing: Self.keys) else { return self }
        var presentation = self
        if let initial = map["initial"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.initialLoading = initial
        }
        if let afterInfo = map["afterInfo"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.loadingAfterInfo = afterInfo
        }
        if let afterError = map["afterError"].flatMap(LoadingPresentation.init(reading:)) {
            presentation.loadingAfterError = afterError
        }
        return presentation
    }
}
