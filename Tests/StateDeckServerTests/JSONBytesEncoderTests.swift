import Foundation
import StateDeck
import Testing
@testable import StateDeckServer

/// The streaming encoder writes the same documents as Foundation's, compared as parsed JSON.
@Suite struct JSONBytesEncoderTests {
    func parsed(_ bytes: [UInt8]) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? NSObject)
    }

    func expectSameAsFoundation(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try JSONBytesEncoder().encode(value)
        let foundations = try [UInt8](DeckJSON.makeEncoder().encode(value))
        #expect(try parsed(ours) == parsed(foundations), "\(String(decoding: ours, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func documentsOfEveryShape() async throws {
        let card = ErrorPresenter(panelOptions: []).card(for: PanelError(.timeout, detail: "No answer\twithin \"5 s\"\n"))
        try expectSameAsFoundation(card)
        try expectSameAsFoundation(Info(summary: "é ✓ 🚦 \u{2028} \u{1}", fields: [Info.Field("a", "b")],
                                        items: [Info.Item(id: "1", title: "One")], text: "x\\y"))
        try expectSameAsFoundation(Info())
        try expectSameAsFoundation([Info]())
        try expectSameAsFoundation(Presentation())
        try expectSameAsFoundation(LoadingPresentation.typeDefaults)
        try expectSameAsFoundation(RetryStatus(attempt: 2, of: 3, nextAt: Date(timeIntervalSince1970: 1_795_341_600.5)))
        try expectSameAsFoundation(["a": [1.5, 2, -0.25, 1e-7, 12_345_678_901]])
        let deck = Deck("D", panels: [Panel("api", title: "API") { Info(summary: "ok") }.group(PanelGroup("g"))])
        try expectSameAsFoundation(try await deck.panelState("api"))
        try expectSameAsFoundation(await deck.snapshot())
    }

    @Test func textIsEscapedForJSONAndForJavaScript() throws {
        let text = String(decoding: try JSONBytesEncoder().encode("quote \" back \\ line\nsep \u{2028}\u{2029} nul \u{0}"), as: UTF8.self)
        #expect(text == #""quote \" back \\ line\nsep \u2028\u2029 nul \u0000""#)
    }

    @Test func aValueThatIsNotANumberIsRefused() {
        #expect(throws: EncodingError.self) { try JSONBytesEncoder().encode([Double.nan]) }
    }
}
