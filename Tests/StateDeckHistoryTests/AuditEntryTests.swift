import FoundationEssentials
import StateDeckHistory
import Testing

/// An audit entry as a person reads it, one sentence per kind of action.
@Suite struct AuditEntryTests {
    @Test(arguments: [
        (AuditAction.retry, "", "", "Retried", "Retried by alice"),
        (.recover, "Use cached copy", "cache", "Recovered with", "Recovered with 'Use cached copy' by alice"),
        (.itemAction, "Restart api-2", "restart on api-2", "Ran", "'Restart api-2' run by alice"),
        (.debugState, "error", "timeout", "Forced debug state", "Debug state error forced by alice"),
        (.maintenanceStarted, "Database upgrade", "db, api", "Started maintenance", "Maintenance 'Database upgrade' started by alice"),
        (.maintenanceEnded, "Database upgrade", "db, api", "Ended maintenance", "Maintenance 'Database upgrade' ended by alice"),
        (.notifyTest, "ops-slack", "", "Sent a test notification to", "Test notification sent to ops-slack by alice"),
        (.incidentOpened, "Checkout slow", "investigating", "Opened incident", "Incident 'Checkout slow' opened by alice"),
        (.incidentUpdated, "Checkout slow", "monitoring", "Updated incident (monitoring)",
         "Incident 'Checkout slow' updated (monitoring) by alice"),
        (.incidentUpdated, "Checkout slow", "", "Updated incident", "Incident 'Checkout slow' updated by alice"),
    ])
    func eachKindReadsAsASentenceSignedByItsActor(action: AuditAction, subject: String, detail: String, what: String,
                                                 text: String) {
        let entry = AuditEntry(at: Date(millisecondsSince1970: 0), actor: "alice", role: "operator", action: action,
                               subject: subject, detail: detail)
        #expect(entry.what == what)
        #expect(entry.text == text)
    }

    /// Every direction control is written out, whether the entry is made or read back from a
    /// store that kept it as written; other right-to-left text is left as it is.
    @Test func directionControlsAreWrittenOutWhereverAnEntryComesFrom() throws {
        let controls = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        let written = "a" + controls.compactMap(Unicode.Scalar.init).map(String.init).joined() + "b שלום"
        let shown = "a[U+061C][U+200E][U+200F][U+202A][U+202B][U+202C][U+202D][U+202E][U+2066][U+2067][U+2068][U+2069]b שלום"
        let made = AuditEntry(at: Date(millisecondsSince1970: 0), actor: "alice", role: "operator", action: .maintenanceStarted,
                              subject: written, detail: written)
        let stored = try #require(AuditEntry(stored: made.id, at: 0, actor: "alice", role: "operator", action: "maintenance_started",
                                             panel: nil, subject: written, detail: written))
        for entry in [made, stored] {
            #expect(entry.subject == shown)
            #expect(entry.detail == shown)
            #expect(entry.text == "Maintenance '\(shown)' started by alice")
        }
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
