/// How a button is drawn: the page picks the first `primary` option as the primary button and the
/// first `secondary` or `cancel` one as the secondary button.
public enum ActionRole: String, Sendable, Hashable, Codable, CaseIterable {
    case primary
    case secondary
    case cancel
    case destructive
}
