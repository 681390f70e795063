import FoundationEssentials
import HTTPClient
import StateDeck

/// One answer to an http source: judged against the source's expectations, then turned into info.
struct HTTPExchange {
    let source: HTTPSource
    let response: HTTPClientResponse

    var status: Int { response.status }
    var text: String { String(decoding: response.body, as: UTF8.self) }

    /// Throws the catalogue's error for a status the conditions do not expect (any 2xx when none
    /// names a status), then `checkFailed` for the first other condition that fails. The status
    /// comes first: a status the service means as a failure (5xx, 401, 404…) keeps its kind, which
    /// says more than any condition on the body, and is retried when that may help.
    func validate() throws(PanelError) {
        let statuses = source.conditions.compactMap { condition -> StatusSet? in
            guard case .status(let statuses) = condition else { return nil }
            return statuses
        }
        for expected in statuses.isEmpty ? [.success] : statuses where !expected.contains(status) {
            throw statusFailure(expected: expected)
        }
        var document: JSONValue?
        for condition in source.conditions {
            if let reason = try failure(of: condition, document: &document) { throw checkFailed(reason) }
        }
    }

    /// Why the answer fails `condition`, or nil when it holds; the status was judged before.
    /// `document` keeps the body's JSON once a pointer has parsed it.
    private func failure(of condition: ResponseCondition, document: inout JSONValue?) throws(PanelError) -> String? {
        switch condition {
        case .status:
            return nil
        case .header(let name, let test):
            return test.failure(of: response.header(name), subject: "Header \(name)")
        case .body(let test):
            return test.failure(of: text, subject: "The answer", quotesText: false)
        case .pointer(let pointer, let test):
            if document == nil { document = try json() }
            return test.failure(of: document?[pointer], at: pointer)
        case .under(let limit):
            guard response.duration >= limit else { return nil }
            return "Answered in \(response.duration.shortText), expected under \(limit.shortText)."
        case .certificate(let validFor):
            guard let certificate = response.certificate else {
                return "There is no certificate to check: the URL is not https."
            }
            // Not checkFailed: the card to show is the certificate's own.
            try certificate.check(validFor: validFor, name: source.url.host ?? "", now: Int(Date().timeIntervalSince1970),
                                  detail: "\(source.method) \(source.shownURL)")
            return nil
        }
    }

    /// The status, the days the certificate has left (https), then the picked fields, or an excerpt
    /// of the body when nothing is picked. The latency is left out: it differs on every check, and
    /// info that differs is a change to record and send, so the panel's `loadMs` carries it
    /// instead; the days left change once a day.
    func info() throws(PanelError) -> Info {
        var fields = [Info.Field("Status", "\(status)")]
        if let certificate = response.certificate {
            let days = certificate.daysLeft(now: Int(Date().timeIntervalSince1970))
            fields.append(Info.Field("Certificate", "valid \(days.counted("more day"))"))
        }
        let document = source.picks.isEmpty ? nil : try json()
        for pick in source.picks {
            guard let value = document?[pick.pointer] else { throw invalid("The JSON has nothing at \(pick.pointer).") }
            fields.append(Info.Field(pick.label, value.displayText))
        }
        let excerpt = text.trimmed().excerpt(limit: 2000)
        return Info(summary: "HTTP \(status)", fields: fields,
                    text: source.picks.isEmpty && !excerpt.isEmpty ? excerpt : nil)
    }

    /// The body as JSON, which a check or a pick needs.
    func json() throws(PanelError) -> JSONValue {
        guard let value = JSONValue(parsing: text) else { throw invalid("The answer is not JSON.") }
        return value
    }

    /// "GET http://… answered 503", then the start of the body.
    var detail: String {
        let excerpt = text.trimmed().excerpt(limit: 500)
        let line = "\(source.method) \(source.shownURL) answered \(status)"
        return excerpt.isEmpty ? line : "\(line)\n\(excerpt)"
    }

    /// An answer the panel cannot read as it is told to (JSON for its pointers and fields): the
    /// service may be right and the panel wrong, so the card says where to look.
    func invalid(_ reason: String) -> PanelError {
        PanelError(.invalidResponse, failureReason: reason,
                   recoverySuggestion: "If the service is right, fix the panel's expect, check or fields in the deck file.",
                   detail: detail)
    }

    /// An answer a condition of the panel rejects; `reason` names the condition and what came.
    func checkFailed(_ reason: String) -> PanelError {
        PanelError(.checkFailed, failureReason: reason,
                   recoverySuggestion: "If the answer is right, change the panel's expect (or expectStatus, check) in the deck file.",
                   detail: detail)
    }
}
