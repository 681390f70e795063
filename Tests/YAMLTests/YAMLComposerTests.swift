import Testing
@testable import YAML

@Suite("YAMLComposer")
struct YAMLComposerTests {
    @Test func plainScalarsMayBeNullAndQuotedOnesNever() throws {
        let root = try compose("""
            tilde: ~
            word: null
            capital: Null
            upper: NULL
            nothing:
            text: nullable
            single: 'null'
            double: "~"
            empty: ''
            """)
        let nulls = ["tilde", "word", "capital", "upper", "nothing", "text", "single", "double", "empty"]
            .map { root[$0]?.isNull }
        #expect(nulls == [true, true, true, true, true, false, false, false, false])
        #expect(outline(root) == #"{tilde: ~, word: null, capital: Null, upper: NULL, nothing: , text: nullable, "#
            + #"single: "null", double: "~", empty: ""}"#)
    }

    @Test func plainScalarsMayBeBoolsAndNumbers() throws {
        let root = try compose("[true, No, ON, 42, -1.5, 0x1F, 0o17, 010, 1_000, .inf, 1:30, '42', \"true\", !!str 7]")
        guard case .sequence(let items) = root.kind else { Issue.record("not a list"); return }
        #expect(items.map(\.bool) == [true, false, true, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil])
        #expect(items.map(\.number) == [nil, nil, nil, 42, -1.5, 31, 15, 8, 1_000, .infinity, nil, nil, nil, nil])
    }

    @Test func blockScalarsAreText() throws {
        let root = try compose("""
            literal: |
              line one
              line two
            folded: >
              one
              sentence
            stripped: |-
              no newline
            blank: |
            """)
        #expect(outline(root) == #"{literal: "line one\nline two\n", folded: "one sentence\n", "#
            + #"stripped: "no newline", blank: ""}"#)
        #expect(root["blank"]?.isNull == false)
    }

    @Test func aJSONTextIsFlowCollections() throws {
        let root = try compose(#"{"title": "JSON deck", "panels": [{"id": "db", "port": 5432, "tls": false}]}"#)
        #expect(outline(root) == #"{"title": "JSON deck", "panels": [{"id": "db", "port": 5432, "tls": false}]}"#)
        #expect(root["panels"]?.mark == YAMLMark(line: 1, column: 34))
        #expect(root["panels"]?.isNull == false)
    }

    @Test func marksCountLinesAndColumnsFromOne() throws {
        let root = try compose("""
            panels:
              - id: api
                port: 80
            """)
        let panel = try #require(root["panels"].flatMap { node -> YAMLNode? in
            guard case .sequence(let items) = node.kind else { return nil }
            return items.first
        })
        #expect(root.mark == YAMLMark(line: 1, column: 1))
        #expect(panel.mark == YAMLMark(line: 2, column: 5))
        #expect(panel["port"]?.mark == YAMLMark(line: 3, column: 11))
    }

    @Test func anAliasIsItsAnchoredNode() throws {
        let root = try compose("""
            base: &server { host: localhost, port: 5432 }
            copy: *server
            name: &name first
            again: *name
            name2: &name second
            latest: *name
            """)
        #expect(outline(root) == "{base: {host: localhost, port: 5432}, copy: {host: localhost, port: 5432}, "
            + "name: first, again: first, name2: second, latest: second}")
        #expect(root["copy"]?.mark == YAMLMark(line: 1, column: 7))
    }

    @Test func anUnknownAliasIsAnError() {
        #expect(throws: YAMLError.syntax(problem: "found undefined alias", mark: YAMLMark(line: 2, column: 8),
                                         context: nil)) {
            try YAMLComposer.compose("a: 1\nb: [1, *missing]")
        }
    }

    @Test func everyKeyGivenAgainIsAnErrorWhereItIsGivenAgain() {
        #expect(throws: YAMLError.duplicateKeys([
            .init(key: "port", mark: YAMLMark(line: 4, column: 3), first: YAMLMark(line: 2, column: 3)),
        ])) {
            try YAMLComposer.compose("""
                db:
                  port: 1
                  host: localhost
                  port: 2
                """)
        }
        #expect(throws: YAMLError.duplicateKeys([
            .init(key: "b", mark: YAMLMark(line: 3, column: 1), first: YAMLMark(line: 1, column: 1)),
            .init(key: "a", mark: YAMLMark(line: 4, column: 1), first: YAMLMark(line: 2, column: 1)),
            .init(key: "c", mark: YAMLMark(line: 5, column: 12), first: YAMLMark(line: 5, column: 6)),
        ])) {
            try YAMLComposer.compose("b: 1\na: 2\nb: 3\na: 4\nd: { c: 1, c: 2 }")
        }
    }

    @Test func aSyntaxErrorHasLibyamlsProblemAndContext() {
        #expect(throws: YAMLError.syntax(
            problem: "did not find expected ',' or '}'",
            mark: YAMLMark(line: 3, column: 1),
            context: .init(text: "while parsing a flow mapping", mark: YAMLMark(line: 1, column: 6))
        )) {
            try YAMLComposer.compose("tcp: { host: localhost,\n  port: 5432\n")
        }
    }

    @Test func aControlCharacterIsAnErrorOnItsLine() {
        #expect(throws: YAMLError.syntax(problem: "control characters are not allowed",
                                         mark: YAMLMark(line: 2, column: 8), context: nil)) {
            try YAMLComposer.compose("a: 1\nb: é x \u{7}")
        }
    }

    @Test func aTextWithoutDocumentHasNoNode() throws {
        #expect(try YAMLComposer.compose("") == nil)
        #expect(try YAMLComposer.compose("\n  \n") == nil)
        #expect(try YAMLComposer.compose("# only a comment\n") == nil)
        #expect(try YAMLComposer.compose("---\n").map(\.isNull) == true)
    }

    @Test func aSecondDocumentIsAnError() {
        #expect(throws: YAMLError.syntax(
            problem: "but found another document",
            mark: YAMLMark(line: 3, column: 1),
            context: .init(text: "expected a single document in the stream", mark: YAMLMark(line: 1, column: 1))
        )) {
            try YAMLComposer.compose("a: 1\n# the next one\n---\nb: 2\n")
        }
    }

    @Test func commentsAreLeftOut() throws {
        let root = try compose("""
            # a deck
            title: Stack # the heading
            panels: [a, # first
              b]
            quoted: "# not a comment"
            """)
        #expect(outline(root) == ##"{title: Stack, panels: [a, b], quoted: "# not a comment"}"##)
    }

    @Test func escapesMayHoldNul() throws {
        #expect(outline(try compose(#"a: "x\0y""#)) == #"{a: "x\0y"}"#)
    }

    @Test func nestingIsLimited() throws {
        let limit = YAMLComposer.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try YAMLComposer.compose(deepest) != nil)
        let deeper = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: YAMLError.syntax(problem: "lists and mappings nested more than \(limit) deep",
                                         mark: YAMLMark(line: 1, column: limit + 1), context: nil)) {
            try YAMLComposer.compose(deeper)
        }
    }

    func compose(_ text: String) throws -> YAMLNode {
        try #require(try YAMLComposer.compose(text))
    }

    /// The tree in flow style: plain scalars bare, others quoted.
    func outline(_ node: YAMLNode) -> String {
        switch node.kind {
        case .scalar(let text, let isPlain):
            isPlain ? text : text.debugDescription
        case .sequence(let items):
            "[" + items.map(outline).joined(separator: ", ") + "]"
        case .mapping(let pairs):
            "{" + pairs.map { "\(outline($0.key)): \(outline($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}
