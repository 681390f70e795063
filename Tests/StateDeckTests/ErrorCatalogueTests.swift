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
        #expect(retried == [.noNetwork, .unreachable, .timeout, .serverError, .serverMaintenance, .unknown])
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

    @Test func aLocalizedErrorGivesItsDescription() {
        struct Described: LocalizedError {
            var errorDescription: String? { "disk quota exceeded" }
        }
        #expect(PanelError(Described()).detail == "disk quota exceeded")
    }
}
