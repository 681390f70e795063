import FoundationEssentials
import MicroHTTP

/// Why a request body was refused; the message names the field.
struct RequestBodyError: Error, CustomStringConvertible {
    let description: String
}

/// Decodes JSON request bodies, turning decoding failures into messages that name the field.
enum RequestBody {
    static func decode<Body: Decodable>(_ type: Body.Type, from request: HTTPRequest) throws -> Body {
        guard !request.body.isEmpty else {
            throw RequestBodyError(description: "the request needs a JSON body")
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(request.body))
        } catch let error as DecodingError {
            throw RequestBodyError(description: message(for: error))
        }
        if let key = JSONDuplicateKey.first(in: request.body) {
            throw RequestBodyError(description: "field '\(key)' is given twice")
        }
        return body
    }

    static func message(for error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context) where context.codingPath.isEmpty,
             .valueNotFound(_, let context) where context.codingPath.isEmpty:
            "the request body must be a JSON object"
        case .typeMismatch(let type, let context):
            "field '\(path(context.codingPath))' must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            "field '\(path(context.codingPath))' must be \(typeName(type)), not null"
        case .keyNotFound(let key, let context):
            "field '\(path(context.codingPath + [key]))' is missing"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "malformed JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
        case .dataCorrupted(let context):
            "field '\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default:
            "malformed request body"
        }
    }

    /// `info.items[2].title` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// `POST /api/panels/{id}/recover` body.
struct RecoverBody: Decodable {
    let option: String
}
