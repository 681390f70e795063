extension PanelLocation {
    /// The one line the page shows above a panel's locations: "Up from all 3 locations" when
    /// they agree, else who sees it down ("Down from eu-west only"), then who says nothing:
    /// "Up from local and eu-west; no data from ap-south".
    public static func summary(of locations: [PanelLocation]) -> String {
        func named(_ health: Health) -> [String] { locations.filter { $0.health == health }.map(\.name) }
        let (up, down, silent, checking) = (named(.up), named(.down), named(.noData), named(.loading))
        let all = locations.count
        if up.count == all { return "Up from all \(all) locations" }
        if down.count == all { return "Down from all \(all) locations" }
        if silent.count == all { return "No data from any location" }
        var parts: [String] = []
        if !down.isEmpty {
            parts.append("Down from \(list(down))" + (up.isEmpty ? "" : " only"))
        } else if !up.isEmpty {
            parts.append("Up from \(list(up))")
        }
        if !silent.isEmpty { parts.append("no data from \(list(silent))") }
        if !checking.isEmpty { parts.append("still checking from \(list(checking))") }
        let line = parts.joined(separator: "; ")
        return line.prefix(1).uppercased() + line.dropFirst()
    }

    /// "a", "a and b", "a, b and c", "a, b, c and 2 more".
    private static func list(_ names: [String]) -> String {
        let shown = names.count > 4 ? Array(names.prefix(3)) + ["\(names.count - 3) more"] : names
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }
}
