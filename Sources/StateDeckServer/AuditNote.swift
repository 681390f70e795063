import FoundationEssentials
import MicroHTTP
import StateDeck
import StateDeckHistory

/// What an accepted action did, as its audit entry tells it: everything but who and when, which
/// ``APIRoutes`` adds where every action runs.
struct AuditNote: Sendable, Equatable {
    var action: AuditAction
    var panel: String?
    var subject = ""
    var detail = ""

    /// The entry `caller` signs at `at`.
    func signed(by caller: Caller, at: Date) -> AuditEntry {
        AuditEntry(at: at, actor: caller.name, role: caller.role.rawValue, action: action, panel: panel, subject: subject,
                   detail: detail)
    }

    /// A debug command forced on `panel`: the state by its request name, an error's kind or the
    /// items marked modifying as the detail.
    static func debug(_ command: DebugCommand, panel: String) -> AuditNote {
        let (state, detail): (String, String) = switch command {
        case .loading: ("loading", "")
        case .loaded: ("loaded", "")
        case .error(let kind): ("error", kind?.rawValue ?? "")
        case .reset: ("reset", "")
        case .modifyingIds(let ids): ("modifying", ids.joined(separator: ", "))
        case .live: ("live", "")
        }
        return AuditNote(action: .debugState, panel: panel, subject: state, detail: detail)
    }

    /// A maintenance window started or ended by hand: its reason, and its panels as the detail.
    static func maintenance(_ action: AuditAction, _ span: MaintenanceSpan) -> AuditNote {
        AuditNote(action: action, subject: span.reason, detail: span.panels.joined(separator: ", "))
    }
}

/// An action route's answer, and what the audit keeps of it once accepted: nil for what no person
/// asked for (a job's ping).
struct ActionOutcome: Sendable {
    var response: HTTPResponse
    var audit: AuditNote?

    init(_ response: HTTPResponse, audit: AuditNote? = nil) {
        self.response = response
        self.audit = audit
    }
}

/// `GET /api/audit`'s answer.
struct AuditDocument: Encodable {
    let entries: [AuditEntry]
}
