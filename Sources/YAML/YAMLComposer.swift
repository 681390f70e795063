/// Composes libyaml's events into the node tree of a single-document YAML text, as Yams's
/// `compose(yaml:)` did: an alias stands for the node of the latest anchor of its name before it,
/// and a key appears only once in a mapping.
public struct YAMLComposer: ~Copyable {
    /// Deeper nesting, aliases' included, is refused, because freeing a tree recurses as deep as it
    /// is; no deck file comes close.
    static let maximumDepth = 1_000
    /// More nodes behind aliases, in all, are refused: aliases of lists that hold aliases multiply
    /// the nodes reading goes through, and their problems (a million from 12 KB), where a deck file
    /// shares a few settings.
    static let maximumAliasedNodes = 10_000

    /// A node, with how deep its lists and mappings nest and how many nodes it stands for, aliases'
    /// included.
    private struct Composed {
        let node: YAMLNode
        /// 0 for a scalar.
        var depth = 0
        var size = 1
    }

    /// A sequence or mapping whose end has not come yet.
    private struct OpenCollection {
        let isMapping: Bool
        let anchor: String?
        let mark: YAMLMark
        /// For a mapping, its keys and values in turn.
        var nodes: [YAMLNode] = []
        /// The deepest nesting of its nodes.
        var depth = 0
        /// Itself and its nodes.
        var size = 1

        mutating func append(_ item: Composed) {
            nodes.append(item.node)
            depth = max(depth, item.depth)
            size += item.size
        }
    }

    private let parser: YAMLParser
    private var anchors: [String: Composed] = [:]
    /// The nodes aliases stood for so far.
    private var aliasedNodes = 0
    /// Keys given again, collected over the whole document so that each is reported.
    private var duplicateKeys: [YAMLError.DuplicateKey] = []

    /// The document of `text`; nil when the text has none (it is empty or only comments). Its
    /// events come from libyaml's `yaml_parser_parse`, through `YAMLParser`.
    public static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        var composer = YAMLComposer(parser: try YAMLParser(parsing: text))
        return try composer.document()
    }

    private init(parser: consuming YAMLParser) {
        self.parser = parser
    }

    private mutating func document() throws(YAMLError) -> YAMLNode? {
        _ = try parser.next() // The stream's start.
        guard case .documentStart = try parser.next() else { return nil }
        let root = try node()
        guard duplicateKeys.isEmpty else { throw .duplicateKeys(duplicateKeys.sorted { $0.mark < $1.mark }) }
        _ = try parser.next() // The document's end.
        if case .documentStart(let mark) = try parser.next() {
            let stream = YAMLError.Context(text: "expected a single document in the stream",
                                           mark: YAMLMark(line: 1, column: 1))
            throw .syntax(problem: "but found another document", mark: mark, context: stream)
        }
        return root
    }

    /// The next node with all of its content; a loop over the events rather than a recursion, so
    /// that deep nesting cannot run out of stack.
    private mutating func node() throws(YAMLError) -> YAMLNode {
        var open: [OpenCollection] = []
        while true {
            let node: Composed
            switch try parser.next() {
            case .alias(let anchor, let mark):
                guard let anchored = anchors[anchor] else {
                    throw .syntax(problem: "found undefined alias", mark: mark, context: nil)
                }
                // The anchored node's lists and mappings go on from here.
                guard open.count + anchored.depth <= Self.maximumDepth else { throw Self.tooDeep(at: mark) }
                aliasedNodes += anchored.size
                guard aliasedNodes <= Self.maximumAliasedNodes else {
                    throw .syntax(problem: "aliases stand for more than \(Self.maximumAliasedNodes) nodes in all",
                                  mark: mark, context: nil)
                }
                node = anchored
            case .scalar(let text, let isPlain, let anchor, let mark):
                node = anchoring(Composed(node: YAMLNode(kind: .scalar(text, isPlain: isPlain), mark: mark)), as: anchor)
            case .collectionStart(let isMapping, let anchor, let mark):
                guard open.count < Self.maximumDepth else { throw Self.tooDeep(at: mark) }
                open.append(OpenCollection(isMapping: isMapping, anchor: anchor, mark: mark))
                continue
            case .collectionEnd:
                guard let collection = open.popLast() else { throw Self.misplacedEvent }
                let closed = Composed(node: closing(collection), depth: collection.depth + 1, size: collection.size)
                node = anchoring(closed, as: collection.anchor)
            case .streamStart, .streamEnd, .documentStart, .documentEnd:
                throw Self.misplacedEvent
            }
            guard !open.isEmpty else { return node.node }
            open[open.count - 1].append(node)
        }
    }

    private static func tooDeep(at mark: YAMLMark) -> YAMLError {
        .syntax(problem: "lists and mappings nested more than \(maximumDepth) deep", mark: mark, context: nil)
    }

    /// libyaml's grammar puts a node where this came; it is thrown only so that nothing can crash.
    private static let misplacedEvent = YAMLError.syntax(
        problem: "found no node where one was expected", mark: nil, context: nil
    )

    private mutating func closing(_ collection: OpenCollection) -> YAMLNode {
        guard collection.isMapping else { return YAMLNode(kind: .sequence(collection.nodes), mark: collection.mark) }
        let pairs = stride(from: 0, to: collection.nodes.count - 1, by: 2).map { index in
            (key: collection.nodes[index], value: collection.nodes[index + 1])
        }
        duplicateKeys += Self.repeatedKeys(in: pairs)
        return YAMLNode(kind: .mapping(pairs), mark: collection.mark)
    }

    /// `node`, kept under `anchor` for the aliases after it.
    private mutating func anchoring(_ node: Composed, as anchor: String?) -> Composed {
        if let anchor { anchors[anchor] = node }
        return node
    }

    /// Each scalar key given again in `pairs`, at its repeat.
    private static func repeatedKeys(in pairs: [(key: YAMLNode, value: YAMLNode)]) -> [YAMLError.DuplicateKey] {
        var firstMarks: [String: YAMLMark] = [:]
        var repeated: [YAMLError.DuplicateKey] = []
        for (key, _) in pairs {
            guard case .scalar(let text, _) = key.kind else { continue }
            if let first = firstMarks[text] {
                repeated.append(YAMLError.DuplicateKey(key: text, mark: key.mark, first: first))
            } else {
                firstMarks[text] = key.mark
            }
        }
        return repeated
    }
}
