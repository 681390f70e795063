/// What a request header must look like so that it stays one header (RFC 9110): a line break in
/// a value would end the field and start another one that nobody wrote.
public enum HTTPFieldSyntax {
    /// A field name: one or more token characters (`tchar`).
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
    }

    /// A field value: no CR, LF or NUL.
    public static func isValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
