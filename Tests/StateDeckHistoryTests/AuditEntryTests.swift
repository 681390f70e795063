import FoundationEssentials
import StateDeckHistory
import Testing

/// An audit entry as a person reads it, one sentence per kind of action.
@Suite struct AuditEntryTests {
    @Test(arguments: [
        (AuditAction.retry, "", "", "Retried by alice"),
        (.recover, "Use cached copy", "cache", "Recovered with 'Use cached copy' by alice"),
        (.itemAction, "Restart api-2", "restart on api-2", "'Restart api-2' run by alice"),
        (.debugState, "error", "timeout", "Debug state error forced by alice"),
        (.maintenanceStarted, "Database upgrade", "db, api", "Maintenance 'Database upgrade' started by alice"),
        (.maintenanceEnded, "Database upgrade", "db, api", "Maintenance 'Database upgrade' ended by alice"),
        (.notifyTest, "ops-slack", "", "Test notification sent to ops-slack by alice"),
        (.incidentOpened, "Checkout slow", "investigating", "Incident 'Checkout slow' opened by alice"),
        (.incidentUpdated, "Checkout slow", "monitoring", "Incident 'Checkout slow' updated (monitoring) by alice"),
        (.incidentUpdated, "Checkout slow", "", "Incident 'Checkout slow' updated by alice"),
    ])
    func eachKindReadsAsASentenceSignedByItsActor(action: AuditAction, subject: String, detail: String, text: String) {
        let entry = AuditEntry(at: Date(millisecondsSince1970: 0), actor: "alice", role: "operator", action: action,
                               subject: subject, detail: detail)
        #expect(entry.text == text)
    }

    /// Two entries of one millisecond are listed as they were made, the later first.
    @Test func entriesOfOneMillisecondAreListedAsTheyWereMade() {
        let at = Date(millisecondsSince1970: 1_795_600_800_000)
        let first = AuditEntry(at: at, actor: "alice", role: "operator", action: .retry, panel: "p")
        let second = AuditEntry(at: at, actor: "bob", role: "operator", action: .retry, panel: "p")
        #expect(first.id != second.id)
        #expect(AuditQuery().select(from: [first, second]) == [second, first])
    }

    @Test func aQueryListsNewestFirstEachIdOnceWithinItsRangeAndLimit() {
        let entries = (0..<5).map { second in
            AuditEntry(id: "e\(second)", at: Date(millisecondsSince1970: Int64(second) * 1_000), actor: "alice", role: "operator",
                       action: .retry, panel: second.isMultiple(of: 2) ? "p" : "q")
        }
        let query = AuditQuery(panel: "p", since: Date(millisecondsSince1970: 1_000), limit: 1)
        #expect(query.select(from: entries + entries).map(\.id) == ["e4"])
        #expect(AuditQuery(panel: "p").select(from: entries + entries).map(\.id) == ["e4", "e2", "e0"])
    }
}
