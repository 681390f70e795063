/// How a panel draws each kind of loading: before the first result, over info, over an error card.
public struct Presentation: Sendable, Hashable, Encodable {
    /// Before the first info or error.
    public var initialLoading: LoadingPresentation
    /// Loading again while info is shown.
    public var loadingAfterInfo: LoadingPresentation
    /// Loading again while an error card is shown.
    public var loadingAfterError: LoadingPresentation

    /// The defaults: material, then beside the info (trailing), then over the error card (trailing).
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
