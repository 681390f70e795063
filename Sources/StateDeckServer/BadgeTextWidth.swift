/// How wide a badge's text is drawn, in pixels of 11 px Verdana, the font badges name first.
///
/// The badge sizes its boxes from this and pins each text to it (`textLength`), so a viewer
/// with another font squeezes or stretches the text a little instead of drawing it past its box.
enum BadgeTextWidth {
    /// Verdana's advance widths (of an em of 2048) for the printable ASCII characters, space to `~`.
    private static let asciiAdvances: [Int] = [
        720, 824, 942, 1831, 1423, 2429, 1617, 540, 1011, 1011, 1423, 1831, 824, 1011, 824, 1011,  // space to /
        1423, 1423, 1423, 1423, 1423, 1423, 1423, 1423, 1423, 1423,  // 0 to 9
        1011, 1011, 1831, 1831, 1831, 1221, 2247,  // : to @
        1401, 1415, 1436, 1597, 1291, 1178, 1605, 1577, 874, 1011, 1419, 1149, 1745,  // A to M
        1573, 1613, 1255, 1613, 1428, 1423, 1241, 1532, 1401, 2058, 1403, 1240, 1403,  // N to Z
        1011, 1011, 1011, 1831, 1423, 1423,  // [ to `
        1226, 1276, 1064, 1276, 1194, 720, 1276, 1291, 562, 694, 1198, 562, 1983,  // a to m
        1291, 1219, 1276, 1276, 874, 1040, 807, 1291, 1198, 1653, 1198, 1198, 1055,  // n to z
        1270, 1011, 1270, 1831,  // { to ~
    ]
    /// Other characters of Latin, Greek and Cyrillic: as wide as Verdana's widest capitals.
    private static let alphabeticAdvance = 1700
    /// Everything else (CJK, symbols, emoji): a whole em, as wide as most fonts draw them.
    private static let wideAdvance = 2048

    /// The width of `text`, rounded up to a whole pixel.
    static func of(_ text: String) -> Int {
        let units = text.unicodeScalars.reduce(0) { total, scalar in
            total + advance(of: scalar)
        }
        return (units * 11 + 2047) / 2048
    }

    private static func advance(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x20...0x7E: asciiAdvances[Int(scalar.value) - 0x20]
        case 0xA0..<0x530: alphabeticAdvance
        default: wideAdvance
        }
    }
}
