import FoundationEssentials

/// The public status page a deck opts into: what it is called, and which panels and groups the
/// public sees, each under a name of its own. Nothing else of the deck is shown there: not its
/// ids, titles, sources, errors, nor any panel it does not list.
///
/// | entry | shown as |
/// | --- | --- |
/// | a panel | one line under its public name; its badge may be embedded by other sites |
/// | a group | one line under its public name for all its panels: the worst of their states, their days and uptime summed; no panel of it is named |
///
/// ```swift
/// Deck("Shop", status: StatusPage("Shop status", components: [
///     .panel("web", name: "Website"),
///     .group("payments", name: "Payments"),
/// ])) { … }
/// ```
public struct StatusPage: Sendable, Hashable {
    /// One line of the page: a panel or a group of the deck, under its public name.
    public struct Component: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case panel
            case group
        }

        public var kind: Kind
        /// The panel's or the group's id in the deck: never shown.
        public var id: String
        /// What the public reads.
        public var name: String
        /// The deck's panels it stands for: the panel, or the group's panels in the deck's order
        /// (filled by the deck).
        public internal(set) var panels: [String]

        public static func panel(_ id: String, name: String) -> Component {
            Component(kind: .panel, id: id, name: name, panels: [id])
        }

        public static func group(_ id: String, name: String) -> Component {
            Component(kind: .group, id: id, name: name, panels: [])
        }
    }

    /// A link under the page's title (a company's site, a support address).
    public struct Link: Sendable, Hashable {
        public var title: String
        /// An absolute http or https URL.
        public var url: String

        public init(title: String, url: String) {
            self.title = title
            self.url = url
        }
    }

    public var title: String
    /// A paragraph under the title, plain text.
    public var description: String?
    /// An https URL of an image shown beside the title.
    public var logo: String?
    public var links: [Link]
    /// In the order they are shown.
    public var components: [Component]

    public init(_ title: String, description: String? = nil, logo: String? = nil, links: [Link] = [],
                components: [Component]) {
        self.title = title
        self.description = description
        self.logo = logo
        self.links = links
        self.components = components
    }

    /// The panels listed on their own: those whose badges other sites may embed.
    public var publicPanels: Set<String> {
        Set(components.filter { $0.kind == .panel }.map(\.id))
    }

    /// The public name of panel `id` when the page lists it on its own, else nil.
    public func publicName(ofPanel id: String) -> String? {
        components.first { $0.kind == .panel && $0.id == id }?.name
    }

    /// The components that stand for panel `id` (one, or none for a panel not shown).
    public func components(showing id: String) -> [Component] {
        components.filter { $0.panels.contains(id) }
    }

    /// This page with each group's panels filled from `panels` (id and group id, in the deck's
    /// order). Every panel and group named must be the deck's.
    func resolved(in panels: [(id: String, group: String?)]) -> StatusPage {
        var page = self
        for index in page.components.indices where page.components[index].kind == .group {
            let id = page.components[index].id
            page.components[index].panels = panels.filter { $0.group == id }.map(\.id)
            precondition(!page.components[index].panels.isEmpty, "The status page names no group \(id) of the deck")
        }
        let ids = Set(panels.map(\.id))
        for component in page.components where component.kind == .panel {
            precondition(ids.contains(component.id), "The status page names no panel \(component.id) of the deck")
        }
        return page
    }
}
