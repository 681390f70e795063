import StateDeck

extension Info {
    /// Longest text an info carries: the page draws it whole.
    static let textLimit = 16 * 1024

    /// `output` read as `format`.
    ///
    /// - Throws: `invalidResponse` when `format` is `json` and the text is not JSON, or is an
    ///   object with only Info's keys that does not read as Info.
    init(output: String, format: OutputFormat) throws(PanelError) {
        let trimmed = output.trimmed()
        switch format {
        case .text:
            self.init(text: trimmed.isEmpty ? nil : trimmed.excerpt(limit: Self.textLimit))
        case .lines:
            self.init(items: trimmed.lineItems())
        case .auto where !(trimmed.hasPrefix("{") || trimmed.hasPrefix("[")):
            try self.init(output: trimmed, format: .text)
        case .auto, .json:
            guard let json = JSONValue(parsing: trimmed) else {
                guard format == .auto else {
                    throw PanelError(.invalidResponse, failureReason: "The output is not JSON.",
                                     detail: trimmed.excerpt(limit: 500))
                }
                try self.init(output: trimmed, format: .text)
                return
            }
            try self.init(json: json, text: trimmed)
        }
    }
}

private extension String {
    /// Items from lines of `id<TAB>title<TAB>subtitle`; a repeated id keeps its first line.
    func lineItems() -> [Info.Item] {
        var seen = Set<String>()
        return split(whereSeparator: \.isNewline).compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { $0.trimmed() }
            guard let id = columns.first, !id.isEmpty, seen.insert(id).inserted else { return nil }
            let title = columns.count > 1 && !columns[1].isEmpty ? columns[1] : id
            return Info.Item(id: id, title: title, subtitle: columns.count > 2 ? columns[2] : nil)
        }
    }
}
