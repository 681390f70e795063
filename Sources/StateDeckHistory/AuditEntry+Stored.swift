import FoundationEssentials

extension AuditEntry {
    /// The entry an `audit` row keeps (its time in milliseconds since 1970, its action by name);
    /// nil for an action this version does not know (a newer one's).
    public init?(stored id: String, at: Int64, actor: String, role: String, action: String, panel: String?, subject: String,
                 detail: String) {
        guard let action = AuditAction(rawValue: action) else { return nil }
        self.init(id: id, at: Date(millisecondsSince1970: at), actor: actor, role: role, action: action, panel: panel,
                  subject: subject, detail: detail)
    }
}
