import Foundation
import Testing
@testable import StateDeck

/// The history's derived values after every sequence of states that tells them apart.
@Suite struct ViewStateHistoryTests {
    static let date = Date(timeIntervalSince1970: 0)
    static let failure = PanelError(.serverError)

    /// A history after `states`, starting, as every history does, with one `initial`.
    static func history(_ states: ViewState...) -> ViewStateHistory {
        var history = ViewStateHistory(at: date)
        for state in states { history.setState(state, at: date) }
        return history
    }

    /// Every derived value of `history`.
    struct Derived: Equatable, CustomStringConvertible {
        var phases: [ViewState.Phase]
        var isInitialLoading = false
        var isLoading = false
        var latestValidInfo: Info?
        var latestInfo: Info?
        var latestValidError: PanelError?
        var latestError: PanelError?
        var latestNonLoading: ViewState?

        init(_ history: ViewStateHistory) {
            phases = history.entries.map(\.state)
            isInitialLoading = history.isInitialLoading
            isLoading = history.isLoading
            latestValidInfo = history.latestValidInfo
            latestInfo = history.latestInfo
            latestValidError = history.latestValidError
            latestError = history.latestError
            latestNonLoading = history.latestNonLoading
        }

        init(phases: [ViewState.Phase]) {
            self.phases = phases
        }

        var description: String { "\(phases)" }
    }

    // MARK: Loading

    /// A new history is `initial` and derives nothing: not loading, no info, no error.
    @Test func initialLoadingFalseWhenInitialized() {
        #expect(Derived(Self.history()) == Derived(phases: [.initial]))
    }

    /// The first loading is an initial loading.
    @Test func initialLoadingTrueForInitialLoading() {
        var expected = Derived(phases: [.initial, .loading])
        expected.isInitialLoading = true
        expected.isLoading = true
        #expect(Derived(Self.history(.loading)) == expected)
    }

    /// Info ends the initial loading and is the latest info, and the latest valid one.
    @Test func initialLoadingFalseWhenThereIsInfo() {
        var expected = Derived(phases: [.initial, .loading, .loaded])
        expected.latestValidInfo = .one
        expected.latestInfo = .one
        expected.latestNonLoading = .loaded(.one)
        #expect(Derived(Self.history(.loading, .loaded(.one))) == expected)
    }

    /// A loading after info is no initial loading, even the first loading of the history.
    @Test func initialLoadingFalseWhenThereIsInfoBeforeFirstLoading() {
        var expected = Derived(phases: [.initial, .loaded, .loading])
        expected.isLoading = true
        expected.latestValidInfo = .one
        expected.latestInfo = .one
        expected.latestNonLoading = .loaded(.one)
        #expect(Derived(Self.history(.loaded(.one), .loading)) == expected)
    }

    /// An error ends the initial loading and is the latest error, and the latest valid one.
    @Test func initialLoadingFalseWhenThereIsAnError() {
        var expected = Derived(phases: [.initial, .loading, .error])
        expected.latestValidError = Self.failure
        expected.latestError = Self.failure
        expected.latestNonLoading = .error(Self.failure)
        #expect(Derived(Self.history(.loading, .error(Self.failure))) == expected)
    }

    /// A loading after an error is loading, but not initial loading.
    @Test func isLoadingTrueForSubsequentLoadings() {
        let history = Self.history(.loading, .error(Self.failure), .loading)
        #expect(history.isLoading)
        #expect(!history.isInitialLoading)
        #expect(history.entries.map(\.state) == [.initial, .loading, .error, .loading])
    }

    // MARK: Info

    /// Info stays valid while the next loading runs.
    @Test func notNilInfoWithLoadingAsFinalState() {
        let history = Self.history(.loading, .loaded(.one), .loading)
        #expect(history.latestValidInfo == .one)
        #expect(history.latestInfo == .one)
        #expect(history.latestNonLoading == .loaded(.one))
    }

    /// An error makes the info no longer valid; it stays the latest info.
    @Test func nilInfoWithErrorAsFinalState() {
        let history = Self.history(.loading, .loaded(.one), .loading, .error(Self.failure))
        #expect(history.latestValidInfo == nil)
        #expect(history.latestInfo == .one)
        #expect(history.latestNonLoading == .error(Self.failure))
        #expect(history.entries.map(\.state) == [.initial, .loading, .loaded, .loading, .error])
    }

    // MARK: Error

    /// An error stays valid while the next loading runs.
    @Test func notNilErrorWithLoadingAsFinalState() {
        let history = Self.history(.loading, .error(Self.failure), .loading)
        #expect(history.latestValidError == Self.failure)
        #expect(history.latestNonLoading == .error(Self.failure))
    }

    /// Info makes the error no longer valid; it stays the latest error.
    @Test func nilErrorWithLoadedInfoAsFinalState() {
        let history = Self.history(.loading, .error(Self.failure), .loading, .loaded(.one))
        #expect(history.latestValidError == nil)
        #expect(history.latestError == Self.failure)
        #expect(history.latestNonLoading == .loaded(.one))
    }

    // MARK: Reset

    /// A reset empties the history, its `initial` entry included, and clears the modifying ids.
    @Test func resetAfterInit() {
        var history = Self.history()
        history.reset()
        #expect(history.entries.isEmpty)
        #expect(history.modifyingIds == nil)
        #expect(history.phase == .initial)
    }

    /// A reset forgets every entry and every derived value.
    @Test func resetForgetsEverything() {
        var history = Self.history(.loading, .loaded(.one), .loading, .error(Self.failure))
        history.modifyingIds = ["123", "902"]
        history.reset()
        #expect(Derived(history) == Derived(phases: []))
        #expect(history.modifyingIds == nil)
        #expect(history.phase == .initial)
    }

    // MARK: Consecutive loadings and resets

    /// isInitialLoading stays true over consecutive loadings until the first info or error since
    /// the last reset.
    @Test func initialLoadingStaysTrueForLoadingsInARow() {
        let history = Self.history(.loading, .loading, .loading)
        #expect(history.isInitialLoading)
    }

    /// After a reset, the next loading is an initial loading again.
    @Test func initialLoadingAgainAfterReset() {
        var history = Self.history(.loading, .loaded(.one))
        history.reset()
        history.setState(.loading, at: Self.date)
        #expect(history.isInitialLoading)
        #expect(history.entries.map(\.state) == [.loading])
    }

    /// Going back to `initial` ends a loading and keeps the latest results.
    @Test func initialStateEndsLoadingWithoutChangingResults() {
        let history = Self.history(.loading, .loaded(.one), .initial)
        #expect(history.phase == .initial)
        #expect(!history.isLoading)
        #expect(history.latestValidInfo == .one)
    }

    // MARK: Bounded history

    @Test func keepsTheNewestFiftyEntriesOldestFirst() {
        var history = ViewStateHistory(at: Self.date)
        for second in 1...120 {
            history.setState(second.isMultiple(of: 2) ? .loading : .loaded(.one), at: Date(timeIntervalSince1970: Double(second)))
        }
        #expect(history.entries.count == ViewStateHistory.displayLimit)
        #expect(history.entries.first?.at == Date(timeIntervalSince1970: 71))
        #expect(history.entries.last?.at == Date(timeIntervalSince1970: 120))
    }

    @Test func derivedValuesCoverStatesNoLongerKept() {
        var history = Self.history(.loading, .error(Self.failure), .loading, .loaded(.one))
        for _ in 0..<200 { history.setState(.loading, at: Self.date) }
        #expect(!history.entries.contains { $0.state != .loading })
        #expect(history.latestError == Self.failure)
        #expect(history.latestValidInfo == .one)
        #expect(history.latestNonLoading == .loaded(.one))
        #expect(!history.isInitialLoading)
    }

    @Test func initialLoadingSurvivesTheCap() {
        var history = ViewStateHistory(at: Self.date)
        for _ in 0..<75 { history.setState(.loading, at: Self.date) }
        #expect(history.isInitialLoading)
        #expect(history.entries.count == 50)
    }
}
