import Testing
@testable import StateDeck

@Suite struct ErrorPresenterTests {
    @Test func buildsTheCardFromTheError() {
        let error = PanelError(
            .serverMaintenance,
            failureReason: "HTTP 503",
            recoverySuggestion: "Come back in ten minutes.",
            detail: "Retry-After: 600"
        )
        let card = ErrorPresenter().card(for: error)
        #expect(
            card
                == ErrorCard(
                    kind: .serverMaintenance,
                    title: "Under maintenance",
                    description: ErrorKind.serverMaintenance.message,
                    icon: "wrench",
                    failureReason: "HTTP 503",
                    recoverySuggestion: "Come back in ten minutes.",
                    detail: "Retry-After: 600",
                    options: [
                        ErrorCard.Option(id: "try-again", label: "Try again", role: .primary),
                        ErrorCard.Option(id: "cancel", label: "Dismiss", role: .cancel),
                    ]
                )
        )
    }

    @Test func showsThePreloaderWhenAsked() {
        #expect(ErrorPresenter().card(for: .server, showPreloader: true).showPreloader)
        #expect(!ErrorPresenter().card(for: .server).showPreloader)
    }

    @Test func offersTheErrorsOptionsBeforeThePanelsWithoutRepeats() {
        let error = PanelError(
            .outOfSpace,
            recoveryOptions: [.freeSpace {}, .buyMoreSpace {}, .custom("cancel", "Not now", role: .cancel) {}]
        )
        let options = ErrorPresenter(panelOptions: [.tryAgain, .cancel]).card(for: error).options
        #expect(options.map(\.id) == ["free-space", "buy-space", "cancel", "try-again"])
        #expect(options.map(\.label) == ["Free space", "Buy more space", "Not now", "Try again"])
        #expect(options.map(\.role) == [.primary, .secondary, .cancel, .primary])
    }

    @Test func aPanelWithoutOptionsShowsOnlyTheErrors() {
        #expect(ErrorPresenter(panelOptions: []).card(for: .server).options.isEmpty)
    }
}
