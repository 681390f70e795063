import Testing
@testable import StateDeckSources

@Suite("Durations, variables, hints and pointers")
struct SupportTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("5s", .seconds(5)), ("1.5s", .milliseconds(1500)),
        ("2m", .seconds(120)), ("1h", .seconds(3600)), ("0ms", .zero),
    ])
    func durationsParse(text: String, duration: Duration) {
        #expect(Duration(parsing: text) == duration)
    }

    @Test(arguments: ["5", "s", "-5s", "5 s", "5sec", "fast", "", "9999999h"])
    func notDurations(text: String) {
        #expect(Duration(parsing: text) == nil)
    }

    @Test func durationsReadShort() {
        #expect(Duration.milliseconds(12).shortText == "12 ms")
        #expect(Duration.milliseconds(1540).shortText == "1.5 s")
        #expect(Duration.seconds(3).shortText == "3 s")
        #expect(Duration.seconds(150).shortText == "3 min")
    }

    @Test func variablesAreSubstituted() throws {
        let environment = ["HOST": "db.local", "EMPTY": ""]
        #expect(try "${HOST}:${PORT:-5432}".substitutingVariables(from: environment).get() == "db.local:5432")
        #expect(try "${EMPTY:-fallback}|${EMPTY}".substitutingVariables(from: environment).get() == "fallback|")
        #expect(try "$$HOME $HOME 5$".substitutingVariables(from: environment).get() == "$HOME $HOME 5$")
    }

    @Test func unsetVariablesAreEachReported() throws {
        let problems = try #require("${A}/${B:-b}/${C}".substitutingVariables(from: [:]).failure)
        #expect(problems.messages == [
            "environment variable A is not set (give a default with ${A:-value})",
            "environment variable C is not set (give a default with ${C:-value})",
        ])
        let open = try #require("${HOST".substitutingVariables(from: [:]).failure)
        #expect(open.messages == ["has a ${ without its closing }"])
    }

    @Test func closeWordsAreSuggested() {
        let keys = ["title", "refresh", "expectStatus", "timeout"]
        #expect("titel".closestMatch(in: keys) == "title")
        #expect("Refresh".closestMatch(in: keys) == "refresh")
        #expect("expectedStatus".closestMatch(in: keys) == "expectStatus")
        #expect("colour".closestMatch(in: keys) == nil)
        #expect("colour".hint(among: ["id", "title"]) == " (expected id, title)")
    }

    @Test func pointersFollowRFC6901() throws {
        let document = try #require(JSONValue(parsing: #"{"a/b": {"~k": [10, 20]}, "": 1}"#))
        #expect(document[try #require(JSONPointer("/a~1b/~0k/1"))] == .number(20))
        #expect(document[try #require(JSONPointer("/"))] == .number(1))
        #expect(document[try #require(JSONPointer(""))] == document)
        #expect(document[try #require(JSONPointer("/a~1b/~0k/2"))] == nil)
        #expect(JSONPointer("status") == nil)
        #expect(JSONPointer("/~01/~2/~")?.tokens == ["~1", "~2", "~"])
    }
}
