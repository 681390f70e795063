extension UInt8 {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let colon: UInt8 = 0x3A
    static let space: UInt8 = 0x20

    var isLineBreak: Bool { self == .lineFeed || self == .carriageReturn }
}
