import Foundation

/// A response as read off the wire.
public struct HTTPTestResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The `code` of a JSON error answer (`{"error": {"code", "message"}}`), or nil.
    public var errorCode: String? {
        let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }
}
