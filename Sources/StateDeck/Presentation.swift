/// How a panel draws each kind of loading, as in the seed's `withViewStateModifier`.
public struct Presentation: Sendable, Hashable, Encodable {
    /// Before the first info or error.
    public var initialLoading: LoadingPresentation
    /// Loading again while info is shown.
    public var loadingAfterInfo: LoadingPresentation
    /// Loading again while an error card is shown.
    public var loadingAfterError: LoadingPresentation

    /// The seed's defaults: material, then horizontal, then over the current content (trailing).
    public init(
        initialLoading: LoadingPresentation = .material,
        loadingAfterInfo: LoadingPresentation = .horizontal(),
        loadingAfterError: LoadingPresentation = .overCurrentContent()
    ) {
        self.initialLoading = initialLoading
        self.loadingAfterInfo = loadingAfterInfo
        self.loadingAfterError = loadingAfterError
    }
}
