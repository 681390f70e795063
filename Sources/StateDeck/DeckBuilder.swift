/// The result builder that declares a deck's panels, with `if`, `if let`, `switch` and `for`.
@resultBuilder
public enum DeckBuilder {
    public static func buildExpression(_ panel: Panel) -> [Panel] { [panel] }

    public static func buildExpression(_ panels: [Panel]) -> [Panel] { panels }

    public static func buildExpression(_ group: Group) -> [Panel] { group.panels }

    public static func buildBlock(_ groups: [Panel]...) -> [Panel] { groups.flatMap(\.self) }

    public static func buildOptional(_ panels: [Panel]?) -> [Panel] { panels ?? [] }

    public static func buildEither(first panels: [Panel]) -> [Panel] { panels }

    public static func buildEither(second panels: [Panel]) -> [Panel] { panels }

    public static func buildArray(_ groups: [[Panel]]) -> [Panel] { groups.flatMap(\.self) }

    public static func buildLimitedAvailability(_ panels: [Panel]) -> [Panel] { panels }
}
