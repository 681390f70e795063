/// What a plain scalar stands for, as Yams read it; quoted, block and tagged scalars are text.
extension YAMLNode {
    /// `~`, `null`, `Null`, `NULL` or nothing at all.
    var isNull: Bool {
        guard let text = plainText else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// true or false, and YAML 1.1's yes, no, on and off, in any case.
    var bool: Bool? {
        switch plainText?.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// An integer (also `0x1f`, `0o17`, `0b101`, and `017` in octal) or a floating-point number
    /// (also `.inf`, `-.inf`, `.nan`); underscores are ignored. YAML 1.1's base 60 (`1:30`) is text.
    var number: Double? {
        guard let text = plainText else { return nil }
        let digits = text.filter { $0 != "_" }
        return Self.integer(digits).map(Double.init) ?? Self.floatingPoint(digits)
    }

    private var plainText: String? {
        guard case .scalar(let text, isPlain: true) = kind else { return nil }
        return text
    }

    private static func integer(_ text: String) -> Int? {
        let isSigned = text.hasPrefix("-") || text.hasPrefix("+")
        let unsigned = text.dropFirst(isSigned ? 1 : 0)
        let sign = text.hasPrefix("-") ? "-" : ""
        // A 0 prefix means octal; 0 alone is zero.
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)]
        where unsigned.hasPrefix(prefix) && unsigned != "0" {
            return Int(sign + unsigned.dropFirst(prefix.count), radix: radix)
        }
        return Int(text)
    }

    private static func floatingPoint(_ text: String) -> Double? {
        switch text.lowercased() {
        case ".inf", "+.inf": .infinity
        case "-.inf": -.infinity
        case ".nan": .nan
        default: Double(text)
        }
    }
}
