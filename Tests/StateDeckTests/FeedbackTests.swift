import Testing
@testable import StateDeck

@Suite struct FeedbackTests {
    static let panel = Panel("api", title: "API") { .one }
    static let retryAction = Toast.Action(id: "try-again", label: "Try again")

    /// A result after a previous one (nil: none since reset), from a manual retry or not.
    struct Transition: Sendable, CustomTestStringConvertible {
        var previous: ViewState.Phase?
        var result: ViewState
        var manual: Bool
        var expected: Feedback.Note?

        var testDescription: String {
            "\(previous.map(\.rawValue) ?? "none") → \(result.phase)\(manual ? " (manual)" : "")"
        }
    }

    static let failed = Feedback.Note(style: .error, message: "API: Unexpected server issue", panelId: "api", action: retryAction)
    static let back = Feedback.Note(style: .success, message: "API is back", panelId: "api")
    static let refreshed = Feedback.Note(style: .success, message: "API refreshed", panelId: "api")

    static let transitions = [
        Transition(previous: nil, result: .error(.server), manual: false, expected: failed),
        Transition(previous: nil, result: .error(.server), manual: true, expected: failed),
        Transition(previous: .loaded, result: .error(.server), manual: false, expected: failed),
        Transition(previous: .loaded, result: .error(.server), manual: true, expected: failed),
        Transition(previous: .error, result: .error(.server), manual: false, expected: nil),
        Transition(previous: .error, result: .error(.server), manual: true, expected: failed),
        Transition(previous: .error, result: .loaded(.one), manual: false, expected: back),
        Transition(previous: .error, result: .loaded(.one), manual: true, expected: back),
        Transition(previous: nil, result: .loaded(.one), manual: false, expected: nil),
        Transition(previous: .loaded, result: .loaded(.one), manual: false, expected: nil),
        Transition(previous: nil, result: .loaded(.one), manual: true, expected: refreshed),
        Transition(previous: .loaded, result: .loaded(.one), manual: true, expected: refreshed),
        Transition(previous: .loaded, result: .loading, manual: true, expected: nil),
        Transition(previous: .error, result: .initial, manual: false, expected: nil),
    ]

    @Test(arguments: transitions)
    func transitionsDecideTheToast(_ transition: Transition) {
        let note = Feedback.Note.result(transition.result, after: transition.previous, manual: transition.manual, in: Self.panel)
        #expect(note == transition.expected)
    }

    @Test func aPanelCanSetItsOwnMessages() {
        let panel = Self.panel
            .successMessage { _ in "Thanks for your rating!" }
            .failureMessage { "Rating failed: \($0.kind)" }
        #expect(Feedback.Note.result(.loaded(.one), after: .error, manual: false, in: panel)?.message == "Thanks for your rating!")
        #expect(Feedback.Note.result(.error(.server), after: nil, manual: false, in: panel)?.message == "Rating failed: serverError")
    }

    @Test func aNilCustomMessageKeepsTheDefault() {
        let panel = Self.panel.successMessage { _ in nil }
        #expect(Feedback.Note.result(.loaded(.one), after: .error, manual: false, in: panel)?.message == "API is back")
    }

    @Test func aFailureToastOffersThePrimaryOptionIfAny() {
        let tryAgain = Toast.Action(id: "try-again", label: "Try again")
        #expect(Feedback.Note.result(.error(.server), after: nil, manual: false, in: Self.panel)?.action == tryAgain)
        // A missing resource offers Check again, which is not the primary action.
        #expect(Feedback.Note.result(.error(.missing), after: nil, manual: false, in: Self.panel)?.action == nil)
        let restart = Self.panel.recovery(.custom("restart", "Restart", role: .primary) {})
        #expect(Feedback.Note.result(.error(.missing), after: nil, manual: false, in: restart)?.action
            == Toast.Action(id: "restart", label: "Restart"))
    }

    @Test func showsOneToastAtATimeReusingTheIdForTheSamePanel() {
        var feedback = Feedback(duration: .seconds(4), position: .bottom)
        let first = feedback.show(Self.failed)
        let again = feedback.show(Self.failed)
        let back = feedback.show(Self.back)
        let other = feedback.show(Feedback.Note(style: .info, message: "Worker: error dismissed", panelId: "worker"))
        let deckWide = feedback.show(Feedback.Note(style: .info, message: "Hello"))
        #expect([first, again, back, other, deckWide].map(\.id) == ["toast-1", "toast-1", "toast-1", "toast-2", "toast-3"])
        #expect(back.style == .success)
        #expect(feedback.current == deckWide)
        #expect(first.durationMs == 4000)
        #expect(first.position == .bottom)
    }

    @Test func expiryClearsOnlyTheToastItWasArmedFor() {
        var feedback = Feedback(duration: .seconds(4), position: .top)
        _ = feedback.show(Self.failed)
        let armed = feedback.revision
        _ = feedback.show(Self.back)
        feedback.expire(revision: armed)
        #expect(feedback.current?.message == "API is back")
        feedback.expire(revision: feedback.revision)
        #expect(feedback.current == nil)
    }
}
