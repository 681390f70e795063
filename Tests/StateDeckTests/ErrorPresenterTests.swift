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

    @Test func offersTheErrorsOptionsThenThePanelsThenTheCataloguesWithoutRepeats() {
        let error = PanelError(
            .outOfSpace,
            recoveryOptions: [.freeSpace {}, .buyMoreSpace {}, .custom("cancel", "Not now", role: .cancel) {}]
        )
        let options = ErrorPresenter(panelOptions: [.custom("restart", "Restart") {}]).card(for: error).options
        #expect(options.map(\.id) == ["free-space", "buy-space", "cancel", "restart", "try-again"])
        #expect(options.map(\.label) == ["Free space", "Buy more space", "Not now", "Restart", "Check again"])
        #expect(options.map(\.role) == [.primary, .secondary, .cancel, .secondary, .secondary])
    }

    @Test func aPanelsTryAgainOverridesTheCatalogues() {
        let options = ErrorPresenter(panelOptions: [.tryAgain]).card(for: .missing).options
        #expect(options.map(\.label) == ["Try again", "Dismiss"])
        #expect(options.first?.role == .primary)
        let relabelled = ErrorPresenter(panelOptions: [.dismiss(label: "Hide")]).card(for: .server).options
        #expect(relabelled.map(\.label) == ["Hide", "Try again"])
    }

    @Test func anOptionScopedToKindsIsOfferedOnlyOnTheirCards() {
        let presenter = ErrorPresenter(panelOptions: [.freeSpace {}])
        #expect(presenter.card(for: PanelError(.outOfSpace)).options.first?.label == "Free space")
        #expect(!presenter.card(for: .server).options.contains { $0.id == "free-space" })
    }
}
