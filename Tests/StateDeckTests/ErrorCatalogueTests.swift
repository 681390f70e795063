import Foundation
import Testing
@testable import StateDeck

@Suite struct ErrorCatalogueTests {
    static let icons: Set = [
        "wifi-off", "clock", "server", "wrench", "search", "lock", "file-warning", "terminal", "hard-drive",
        "download", "alert",
    ]

    @Test(arguments: ErrorKind.allCases)
    func everyKindHasCopyAndAKnownIcon(kind: ErrorKind) {
        #expect(!kind.title.isEmpty)
        #expect(!kind.message.isEmpty)
        #expect(Self.icons.contains(kind.icon))
    }

    @Test func onlyTransientKindsAreRetried() {
        let retried = ErrorKind.allCases.filter(\.isRetryable)
        #expect(retried == [.noNetwork, .unreachable, .timeout, .serverError, .serverMaintenance, .dnsServerFailure, .unknown])
    }

    @Test func panelErrorTakesTheKindsCopyUnlessGiven() {
        let plain = PanelError(.noNetwork)
        #expect(plain.title == "No network")
        #expect(plain.message == ErrorKind.noNetwork.message)
        #expect(plain.errorDescription == "No network")
        let custom = PanelError(.noNetwork, title: "Offline", message: "Plug the cable back in.")
        #expect(custom.title == "Offline")
        #expect(custom.message == "Plug the cable back in.")
    }

    @Test func aPanelErrorConvertsToItself() {
        let error = PanelError(.outOfSpace, detail: "/var is full")
        #expect(PanelError(error as any Error) == error)
    }

    @Test func cancellationBecomesATimeout() {
        #expect(PanelError(CancellationError()).kind == .timeout)
    }

    @Test func anyOtherErrorIsUnknownWithItsDescription() {
        struct Boom: Error, CustomStringConvertible {
            var description: String { "boom at line 3" }
        }
        let error = PanelError(Boom())
        #expect(error.kind == .unknown)
        #expect(error.detail == "boom at line 3")
    }

    @Test func aLocalizedErrorKeepsItsWordsOnTheCard() {
        struct QuotaExceeded: LocalizedError, CustomStringConvertible {
            var errorDescription: String? { "The disk quota is exceeded." }
            var failureReason: String? { "/home uses 10 GB of its 10 GB." }
            var recoverySuggestion: String? { "Empty the trash, then check again." }
            var description: String { "QuotaExceeded(volume: /home)" }
        }
        let card = ErrorPresenter().card(for: PanelError(QuotaExceeded()))
        #expect(card.kind == .unknown)
        #expect(card.description == "The disk quota is exceeded.")
        #expect(card.failureReason == "/home uses 10 GB of its 10 GB.")
        #expect(card.recoverySuggestion == "Empty the trash, then check again.")
        #expect(card.detail == "QuotaExceeded(volume: /home)")
    }

    @Test func aLocalizedErrorWithoutWordsKeepsTheKindsCopy() {
        struct Silent: LocalizedError {}
        let error = PanelError(Silent())
        #expect(error.message == ErrorKind.unknown.message)
        #expect(error.failureReason == nil && error.recoverySuggestion == nil)
    }

    /// Kinds a retry may fix offer Try again as the primary action; kinds whose fix is elsewhere
    /// offer Check again, never as the primary action; a heartbeat's, which nothing but the job's
    /// next ping changes, only Dismiss.
    @Test(arguments: ErrorKind.allCases)
    func theCataloguesButtonsSuitTheKind(kind: ErrorKind) throws {
        let options = ErrorPresenter().card(for: PanelError(kind)).options
        if [ErrorKind.pingMissed, .jobFailed].contains(kind) {
            #expect(options == [ErrorCard.Option(id: "cancel", label: "Dismiss", role: .cancel)])
            return
        }
        let retry = try #require(options.first { $0.id == RecoveryOption.retryId })
        let fixedElsewhere: Set<ErrorKind> = [
            .notFound, .unauthorized, .invalidResponse, .checkFailed, .updateAvailable, .updateRequired, .outOfSpace,
            .dnsNameNotFound, .dnsAnswerTooLarge, .certificateExpiring, .certificateUntrusted, .domainExpiring, .domainExpired,
            .domainNotRegistered, .noRDAPServer, .containerNotRunning, .containerUnhealthy, .containerNotFound,
            .queryFailed, .serviceNotServing,
        ]
        if fixedElsewhere.contains(kind) {
            #expect(retry == ErrorCard.Option(id: "try-again", label: "Check again", role: .secondary))
            #expect(!options.contains { $0.role == .primary })
        } else {
            #expect(retry == ErrorCard.Option(id: "try-again", label: "Try again", role: .primary))
        }
        #expect(options.last == ErrorCard.Option(id: "cancel", label: "Dismiss", role: .cancel))
    }
}
