import FoundationEssentials
import StateDeck

/// A deck file's `status:`: the public status page, the one thing that exposes a deck to anyone
/// without its token. Without it, `/status` is 404.
///
/// | key | value |
/// | --- | --- |
/// | `title` | the page's heading (``TextLimit/title``); "Status" when not given: the deck's own title is private |
/// | `description` | a paragraph under it (``TextLimit/message``) |
/// | `logo` | an https URL of an image (the page's policy allows that origin alone) |
/// | `links` | `[{title, url}]`, each url http or https, each title within ``TextLimit/title`` |
/// | `panels` | `[{id, name}]`: panels of the file, each one line under `name` (``TextLimit/title``) |
/// | `groups` | `[{id, name}]`: groups of the file, each one line under `name` for all its panels |
///
/// At least one panel or group; an id and a name are each given once.
enum StatusSpec {
    static let keys = ["title", "description", "logo", "links", "panels", "groups"]
    /// The heading of a page whose `status:` gives no title.
    static let defaultTitle = "Status"

    /// The page of `node` over the file's `panels`; nil (with problems) when it cannot be read.
    static func page(reading node: ConfigNode, panels: [PanelSpec]) -> StatusPage? {
        guard let map = node.mapping(allowing: keys) else { return nil }
        // Never the deck's title: it names the dashboard, which may say more than the public
        // should read ("Payments prod (eu-1, on-call: bob)"). The page shows what `status:` names.
        let title = map["title"]?.text(within: .title) ?? defaultTitle
        let description = map["description"]?.text(within: .message)
        let logo = map["logo"]?.httpsURL()
        let links: [StatusPage.Link]? = if let node = map["links"] { Self.links(node) } else { [] }
        guard map["panels"] != nil || map["groups"] != nil else {
            map.node.problem("needs panels or groups: what the public sees")
            return nil
        }
        let panelEntries = map["panels"].map { components($0, kind: .panel, among: panels.map(\.id)) } ?? []
        let groupIds = panels.compactMap(\.group?.id).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let groupEntries = map["groups"].map { components($0, kind: .group, among: groupIds) } ?? []
        let entries = panelEntries + groupEntries
        reportReusedNames(entries)
        // A value given but unreadable was reported; the page is not made without it.
        guard map["logo"] == nil || logo != nil, let links, !entries.contains(where: { $0.component == nil })
        else { return nil }
        return StatusPage(title, description: description, logo: logo, links: links,
                          components: entries.compactMap(\.component))
    }

    /// Each entry of a `panels` or `groups` list with the node it was read from.
    private static func components(_ node: ConfigNode, kind: StatusPage.Component.Kind,
                                   among known: [String]) -> [(node: ConfigNode, component: StatusPage.Component?)] {
        guard let items = node.list() else { return [] }
        let key = kind == .panel ? "panels" : "groups"
        let read = items.map { item -> (node: ConfigNode, component: StatusPage.Component?) in
            guard let map = item.mapping(allowing: ["id", "name"]) else { return (item, nil) }
            let id = map.required("id")?.identifier()
            let name = map.required("name")?.text(within: .title)
            if let id, !known.contains(id) {
                map["id"]?.problem("no \(kind.rawValue) \(id) in the file's \(key)\(id.hint(among: known))")
                return (item, nil)
            }
            guard let id, let name else { return (item, nil) }
            return (item, kind == .panel ? .panel(id, name: name) : .group(id, name: name))
        }
        ConfigNode.reportReusedIds(read.map { ($0.node, $0.component?.id) })
        return read
    }

    /// Reports, at its `name` key, each line that takes the public name of an earlier one: the
    /// public could not tell them apart.
    private static func reportReusedNames(_ entries: [(node: ConfigNode, component: StatusPage.Component?)]) {
        var seen: [String: ConfigNode] = [:]
        for (node, component) in entries {
            guard let name = component?.name else { continue }
            guard let earlier = seen[name] else {
                seen[name] = node
                continue
            }
            let nameNode = node.node["name"].map { node.child($0, at: .key("name")) } ?? node
            nameNode.problem("\(name) is already the name of \(earlier.path)")
        }
    }

    /// `links:`; nil when one cannot be read.
    private static func links(_ node: ConfigNode) -> [StatusPage.Link]? {
        guard let items = node.list() else { return nil }
        let links = items.map { item -> StatusPage.Link? in
            guard let map = item.mapping(allowing: ["title", "url"]) else { return nil }
            let title = map.required("title")?.text(within: .title)
            let url = map.required("url")?.httpURL()
            guard let title, let url else { return nil }
            return StatusPage.Link(title: title, url: url.absoluteString)
        }
        return links.contains(nil) ? nil : links.compactMap(\.self)
    }
}

extension ConfigNode {
    /// An absolute https URL, as text.
    func httpsURL() -> String? {
        guard let text = string() else { return nil }
        guard let url = URL(string: text), url.scheme?.lowercased() == "https", url.host?.isEmpty == false else {
            problem("must be an https URL")
            return nil
        }
        return url.absoluteString
    }
}
