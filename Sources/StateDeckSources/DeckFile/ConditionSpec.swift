import HTTPClient
import StateDeck

// MARK: - http

extension ResponseCondition {
    /// What a condition of an http source checks, the key it starts with.
    static let subjects = ["status", "header", "body", "pointer", "under", "certificate"]

    /// `expect:`, a list of conditions, each a mapping of what it checks and how:
    /// `{ status: [200, "300-399"] }`, `{ header: X-Mode, equals: live }`,
    /// `{ body: { matches: "version [0-9]+" } }`, `{ pointer: /queue/depth, below: 100 }`,
    /// `{ under: 500ms }`, `{ certificate: { validFor: 14d } }`. `timeout` is the source's, which an
    /// `under` must be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [ResponseCondition]? {
        node.conditions { ResponseCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        let tests: KeyValuePairs<String, [String]> = [
            "header": ["present", "equals", "matches"],
            "pointer": ["equals", "exists", "below", "above", "matches"],
        ]
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: tests) else { return nil }
        let value = condition.value
        switch condition.subject {
        case "status":
            guard let statuses = value.statusSet() else { return nil }
            self = .status(statuses)
        case "header":
            let name = value.headerName()
            let test = condition.test.flatMap { $0.value.textTest(named: $0.name) }
            guard let name, let test else { return nil }
            self = .header(name, test)
        case "body":
            guard let test = value.bodyTest() else { return nil }
            self = .body(test)
        case "pointer":
            let pointer = value.pointer()
            let test = condition.test.flatMap { $0.value.valueTest(named: $0.name) }
            guard let pointer, let test else { return nil }
            self = .pointer(pointer, test)
        case "certificate":
            guard let map = value.mapping(allowing: ["validFor"]),
                  let validFor = map.required("validFor")?.duration(atLeast: .zero) else { return nil }
            self = .certificate(validFor: validFor)
        default:
            guard let limit = value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }

    /// `check:`, the shorthand of one condition on the body: `{ contains: text }` or
    /// `{ pointer: /path, equals: value }`.
    init?(readingCheck node: ConfigNode) {
        guard let map = node.mapping(allowing: ["contains", "pointer", "equals"]) else { return nil }
        if let contains = map["contains"] {
            if let extra = map.present(["pointer", "equals"]).first {
                map[extra]?.problem("a check is either contains, or pointer with equals, not both")
            }
            guard let text = contains.text(), map.present(["pointer", "equals"]).isEmpty else { return nil }
            self = .body(.contains(text))
        } else {
            let pointer = map.required("pointer")?.pointer()
            let value = map.required("equals")?.jsonValue()
            guard let pointer, let value else { return nil }
            self = .pointer(pointer, .equals(value))
        }
    }
}

// MARK: - tcp

extension ConnectionCondition {
    /// What a condition of a tcp source checks.
    static let subjects = ["banner", "under"]

    /// `expect:` of a tcp source: `{ banner: { contains: SSH } }`, `{ banner: { matches: "^220 " } }`,
    /// `{ under: 100ms }`. `timeout` is the source's, which an `under` must be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [ConnectionCondition]? {
        node.conditions { ConnectionCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: [:]) else { return nil }
        if condition.subject == "banner" {
            guard let test = condition.value.bodyTest() else { return nil }
            self = .banner(test)
        } else {
            guard let limit = condition.value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }
}

// MARK: - ping

extension PingCondition {
    /// What a condition of a ping source checks.
    static let subjects = ["loss", "under"]

    /// `expect:` of a ping source: `{ loss: { below: 50% } }`, `{ under: 100ms }` (the average
    /// round trip). `timeout` is each request's, which an `under` must be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [PingCondition]? {
        node.conditions { PingCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: [:]) else { return nil }
        if condition.subject == "loss" {
            guard let map = condition.value.mapping(allowing: ["below"]),
                  let share = map.required("below")?.percentage() else { return nil }
            self = .lossBelow(share)
        } else {
            guard let limit = condition.value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }
}

// MARK: - postgres, mysql

extension QueryCondition {
    /// What a condition of a postgres or mysql source checks.
    static let subjects = ["column", "rows", "under"]

    /// `expect:` of a postgres or mysql source: `{ column: status, equals: ok }`,
    /// `{ column: lag, below: 30 }`, `{ rows: { above: 0 } }`, `{ under: 200ms }` (the query's
    /// time). `timeout` is the source's, which an `under` must be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [QueryCondition]? {
        node.conditions { QueryCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        let tests: KeyValuePairs<String, [String]> = ["column": ResultTest.names]
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: tests) else { return nil }
        switch condition.subject {
        case "column":
            let name = condition.value.text()
            let test = condition.test.flatMap { $0.value.resultTest(named: $0.name) }
            guard let name, let test else { return nil }
            self = .column(name, test)
        case "rows":
            guard let test = condition.value.countTest() else { return nil }
            self = .rows(test)
        default:
            guard let limit = condition.value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }
}

// MARK: - redis

extension ReplyCondition {
    /// What a condition of a redis source checks.
    static let subjects = ["reply", "under"]

    /// `expect:` of a redis source: `{ reply: { equals: PONG } }`, `{ reply: { below: 1000 } }`,
    /// `{ under: 50ms }` (the command's time). `timeout` is the source's, which an `under` must
    /// be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [ReplyCondition]? {
        node.conditions { ReplyCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: [:]) else { return nil }
        if condition.subject == "reply" {
            guard let map = condition.value.mapping(allowing: ResultTest.names),
                  let test = map.oneTest(of: ResultTest.names).flatMap({ $0.value.resultTest(named: $0.name) }) else { return nil }
            self = .reply(test)
        } else {
            guard let limit = condition.value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }
}

// MARK: - websocket

extension MessageCondition {
    /// What a condition of a websocket source checks.
    static let subjects = ["message", "under"]

    /// `expect:` of a websocket source: `{ message: { contains: pong } }`, `{ message: { matches: "^ok" } }`
    /// (the answer to `send`), `{ under: 200ms }` (from connecting to the answer). `timeout` is the
    /// source's, which an `under` must be shorter than.
    static func list(reading node: ConfigNode, timeout: Duration) -> [MessageCondition]? {
        node.conditions { MessageCondition(reading: $0, timeout: timeout) }
    }

    /// One entry of `expect`.
    init?(reading node: ConfigNode, timeout: Duration) {
        guard let condition = ConditionReading(node, subjects: Self.subjects, tests: [:]) else { return nil }
        if condition.subject == "message" {
            guard let test = condition.value.bodyTest() else { return nil }
            self = .message(test)
        } else {
            guard let limit = condition.value.time(under: timeout) else { return nil }
            self = .under(limit)
        }
    }
}

// MARK: - One condition

/// A condition's mapping, split into the one key naming what it checks (its subject) and, for a
/// subject that takes one, the one key saying how (its test), each problem reported on the way.
struct ConditionReading {
    let subject: String
    let value: ConfigNode
    /// Nil for a subject that takes no test: its value says it all.
    let test: (name: String, value: ConfigNode)?

    /// Nil, with the problems reported, unless `node` has exactly one of `subjects` and, when
    /// `tests` lists that subject's, exactly one of them.
    init?(_ node: ConfigNode, subjects: [String], tests: KeyValuePairs<String, [String]>) {
        let allTests = tests.flatMap { $0.value }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard let map = node.mapping(allowing: subjects + allTests) else { return nil }
        // A key reported unknown may be the subject or test misspelt: what is missing is not told again.
        let allKnown = if case .mapping(let pairs) = node.node.kind { pairs.count == map.entries.count } else { true }
        let named = map.present(subjects)
        guard let subject = named.first, let value = map[subject] else {
            if allKnown { node.problem("needs what it checks: one of \(subjects.joined(separator: ", "))") }
            return nil
        }
        for other in named.dropFirst() {
            map[other]?.problem("a condition checks one thing, and this one already checks \(subject)")
        }
        let own = tests.first { $0.key == subject }?.value ?? []
        let given = map.present(allTests)
        for other in given where !own.contains(other) {
            map[other]?.problem(own.isEmpty
                ? "is not a test of \(subject): \(Self.example(of: subject))"
                : "is not a test of \(subject); use one of \(own.joined(separator: ", "))")
        }
        let tested = given.filter(own.contains)
        for other in tested.dropFirst() {
            map[other]?.problem("a condition has one test, and this one already has \(tested[0])")
        }
        if !own.isEmpty, given.isEmpty, allKnown {
            node.problem("needs a test of \(subject): one of \(own.joined(separator: ", "))")
        }
        guard named.count == 1, given.count == tested.count, tested.count == (own.isEmpty ? 0 : 1) else { return nil }
        self.subject = subject
        self.value = value
        test = tested.first.flatMap { name in map[name].map { (name: name, value: $0) } }
    }

    /// How a subject without tests is written.
    private static func example(of subject: String) -> String {
        switch subject {
        case "status": "write { status: 200 }, or a list such as [200, \"300-399\"]"
        case "body": "write the test inside it, like { body: { contains: ok } }"
        case "banner": "write the test inside it, like { banner: { contains: SSH } }"
        case "certificate": "write { certificate: { validFor: 14d } }"
        case "loss": "write the test inside it, like { loss: { below: 20% } }"
        case "message": "write the test inside it, like { message: { contains: pong } }"
        case "rows": "write the test inside it, like { rows: { above: 0 } }"
        case "reply": "write the test inside it, like { reply: { equals: PONG } }"
        default: "write { under: 500ms }"
        }
    }
}

extension ConfigNode {
    /// A list of conditions, each read by `read`; nil when one is wrong.
    fileprivate func conditions<Condition>(_ read: (ConfigNode) -> Condition?) -> [Condition]? {
        guard let items = list() else { return nil }
        let conditions = items.map(read)
        return conditions.allSatisfy { $0 != nil } ? conditions.compactMap(\.self) : nil
    }

    /// The test of a header named by its key: `present: true|false`, `equals: text` or
    /// `matches: pattern`.
    func textTest(named name: String) -> TextTest? {
        switch name {
        case "present": bool().map(TextTest.present)
        case "equals": string().map(TextTest.equals)
        default: pattern().map(TextTest.matches)
        }
    }

    /// The test of a JSON value named by its key: `equals`, `exists`, `below`, `above` or `matches`.
    func valueTest(named name: String) -> ValueTest? {
        switch name {
        case "equals": jsonValue().map(ValueTest.equals)
        case "exists": bool().map(ValueTest.exists)
        case "below": finiteNumber().map(ValueTest.below)
        case "above": finiteNumber().map(ValueTest.above)
        default: pattern().map(ValueTest.matches)
        }
    }
}

// MARK: - Tests of database answers

extension ResultTest {
    /// The keys of a test of a column or a reply.
    static let names = ["equals", "contains", "matches", "below", "above"]
    /// The keys of a test of a number of rows.
    static let countNames = ["equals", "below", "above"]
}

extension ConfigMapping {
    /// The one of `names` the mapping gives, with its node; nil, reported, for none or more. A
    /// key reported unknown may be the test misspelt: that it is missing is not told again.
    fileprivate func oneTest(of names: [String]) -> (name: String, value: ConfigNode)? {
        let given = present(names)
        guard let name = given.first, let value = self[name] else {
            let allKnown = if case .mapping(let pairs) = node.node.kind { pairs.count == entries.count } else { true }
            if allKnown { node.problem("needs a test: one of \(names.joined(separator: ", "))") }
            return nil
        }
        for other in given.dropFirst() { self[other]?.problem("a condition has one test, and this one already has \(name)") }
        return given.count == 1 ? (name, value) : nil
    }
}

extension ConfigNode {
    /// The test of a column or a reply named by its key: `equals`, `contains` or `matches` (a
    /// text), `below` or `above` (a number).
    func resultTest(named name: String) -> ResultTest? {
        switch name {
        case "equals": string().map(ResultTest.equals)
        case "contains": text().map(ResultTest.contains)
        case "matches": pattern().map(ResultTest.matches)
        case "below": finiteNumber().map(ResultTest.below)
        default: finiteNumber().map(ResultTest.above)
        }
    }

    /// `{ equals: 1 }`, `{ below: 100 }` or `{ above: 0 }`: the test of a number of rows.
    func countTest() -> ResultTest? {
        guard let map = mapping(allowing: ResultTest.countNames), let test = map.oneTest(of: ResultTest.countNames) else {
            return nil
        }
        guard test.name != "equals" else { return test.value.int(in: 0...Int.max).map { ResultTest.equals(String($0)) } }
        return test.value.resultTest(named: test.name)
    }
}

// MARK: - Values

extension ConfigNode {
    /// A status (`200`), a range of them (`200-299`), or a list of either.
    func statusSet() -> StatusSet? {
        guard case .sequence = node.kind else { return statusRange().map { StatusSet([$0]) } }
        guard let items = list() else { return nil }
        guard !items.isEmpty else {
            problem("needs at least one status")
            return nil
        }
        let ranges = items.map { $0.statusRange() }
        return ranges.contains(nil) ? nil : StatusSet(ranges.compactMap(\.self))
    }

    private func statusRange() -> ClosedRange<Int>? {
        guard let text = string() else { return nil }
        guard text.contains("-") else { return int(in: 100...599).map { $0...$0 } }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
            .map { Int($0.trimmed()) }
        guard bounds.count == 2, let low = bounds[0], let high = bounds[1], 100 <= low, low <= high, high <= 599 else {
            problem("must be a range of statuses from 100 to 599 like 200-299, not \(text)")
            return nil
        }
        return low...high
    }

    /// The name of a header field, matched without regard to case.
    func headerName() -> String? {
        guard let name = text() else { return nil }
        guard HTTPFieldSyntax.isName(name) else {
            problem("must be a header name: letters, digits and !#$%&'*+-.^_`|~")
            return nil
        }
        return name
    }

    /// `{ contains: text }` or `{ matches: pattern }`: the test of a body or a banner.
    func bodyTest() -> TextTest? {
        guard let map = mapping(allowing: ["contains", "matches"]) else { return nil }
        let tests = map.present(["contains", "matches"])
        guard let first = tests.first else {
            problem("needs contains (a text) or matches (a regular expression)")
            return nil
        }
        if tests.count > 1 { map["matches"]?.problem("give either contains or matches, not both") }
        let test = first == "contains" ? map[first]?.text().map(TextTest.contains) : map[first]?.pattern().map(TextTest.matches)
        guard tests.count == 1 else { return nil }
        return test
    }

    /// A regular expression in PCRE2's syntax; one that does not compile is reported with PCRE2's
    /// words and where in the pattern it stopped.
    func pattern() -> TextPattern? {
        guard let text = text() else { return nil }
        do {
            return try TextPattern(text)
        } catch {
            problem("\(text.quoted) is not a regular expression: \(error)")
            return nil
        }
    }

    /// The limit of an `under`: a duration shorter than the source's `timeout`, which would end the
    /// exchange before the condition could fail.
    func time(under timeout: Duration) -> Duration? {
        guard let limit = duration() else { return nil }
        guard limit < timeout else {
            problem("must be shorter than the timeout, \(timeout.shortText), which ends the check first")
            return nil
        }
        return limit
    }

    /// A share written as a percentage, `25%` (or `25`), from 0 to 100: the fraction, 0.25.
    func percentage() -> Double? {
        guard let text = string() else { return nil }
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number.trimmed()), (0...100).contains(percent) else {
            problem("must be a percentage from 0% to 100%, not \(text)")
            return nil
        }
        return percent / 100
    }

    /// A number, written plain or from a variable; never infinite or NaN.
    func finiteNumber() -> Double? {
        guard let text = string() else { return nil }
        guard let number = Double(text.trimmed()), number.isFinite else {
            problem("must be a number, not \(text)")
            return nil
        }
        return number
    }
}
