import Testing
@testable import StateDeck

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(attempts: 10)

    @Test func backoffDoublesFromOneSecondUpToThirty() {
        let delays = (1...8).map { policy.backoff(after: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
    }

    @Test(arguments: 1...8)
    func jitterStaysWithinThirtyPercent(attempt: Int) throws {
        let base = policy.backoff(after: attempt)
        let lowest = try #require(policy.delay(after: attempt, failedWith: .server) { 0 })
        let highest = try #require(policy.delay(after: attempt, failedWith: .server) { 0.999_999 })
        let middle = try #require(policy.delay(after: attempt, failedWith: .server) { 0.5 })
        #expect(lowest == base * 0.7)
        #expect(highest > base * 1.299 && highest < base * 1.3)
        #expect(middle == base)
    }

    @Test func defaultsAreThreeAttemptsFromOneSecond() {
        let policy = RetryPolicy()
        #expect(policy.delay(after: 1, failedWith: .server) { 0.5 } == .seconds(1))
        #expect(policy.delay(after: 2, failedWith: .server) { 0.5 } == .seconds(2))
        #expect(policy.delay(after: 3, failedWith: .server) { 0.5 } == nil)
    }

    @Test(arguments: ErrorKind.allCases.filter { !$0.isRetryable })
    func kindsNotWorthRetryingAreShownAtOnce(kind: ErrorKind) {
        #expect(policy.delay(after: 1, failedWith: PanelError(kind)) { 0.5 } == nil)
    }

    @Test func retryAfterWithinTheCapIsWaitedExactly() {
        let error = PanelError(.serverMaintenance, retryAfter: .seconds(20))
        #expect(policy.delay(after: 1, failedWith: error) { 0 } == .seconds(20))
    }

    @Test func retryAfterBeyondTheCapEndsTheLoad() {
        let error = PanelError(.serverMaintenance, retryAfter: .seconds(600))
        #expect(policy.delay(after: 1, failedWith: error) { 0.5 } == nil)
    }

    @Test func noneNeverRetries() {
        #expect(RetryPolicy.none.delay(after: 1, failedWith: .server) { 0.5 } == nil)
        #expect(RetryPolicy(attempts: 0).attempts == 1)
    }
}
