import Testing
@testable import StateDeckServer

/// A JSON body giving a key twice says two things at once: the decoder would keep the last, so
/// the server refuses it instead, naming the key.
@Suite struct JSONDuplicateKeyTests {
    @Test(arguments: [
        (#"{"option": "a", "option": "b"}"#, "option"),
        (#"{"state": "loaded", "info": {"summary": "a", "fields": [], "summary": "b"}}"#, "info.summary"),
        (#"{"info": {"items": [{"id": "1"}, {"id": "2", "title": "t", "id": "3"}]}}"#, "info.items[1].id"),
        (#"[{"a": 1}, {"a": 1, "a": 2}]"#, "[1].a"),
        (#"{"a\"b": 1, "a\"b": 2}"#, #"a\"b"#),
    ])
    func aKeyGivenTwiceIsFound(json: String, path: String) {
        #expect(JSONDuplicateKey.first(in: Array(json.utf8)) == path)
    }

    @Test(arguments: [
        #"{"option": "a"}"#,
        #"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#,
        #"{"text": "\"option\": 1, \"option\": 2"}"#,
        #"[1, "two", {"x": null}]"#,
    ])
    func uniqueKeysPass(json: String) {
        #expect(JSONDuplicateKey.first(in: Array(json.utf8)) == nil)
    }
}
