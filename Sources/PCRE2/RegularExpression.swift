import CPCRE2

/// A regular expression in PCRE2's syntax (Perl's), compiled once (`pcre2_compile_8`, then to
/// machine code by `pcre2_jit_compile_8` where PCRE2 can) and matched from any thread
/// (`pcre2_match_8`) under limits that end every match in bounded time, whatever the pattern and
/// the text: `^(a+)+$` against 25 a's and a b backtracks 2^25 ways, and a few more a's take years.
///
/// The text is matched by Unicode code points (`PCRE2_UTF`), and `\d`, `\w`, `\b` and the POSIX
/// classes know Unicode's letters and digits (`PCRE2_UCP`).
///
/// `@unchecked Sendable`: the compiled code is never changed after `init`, and PCRE2 lets threads
/// share it; each match has match data and a match context of its own.
public final class RegularExpression: @unchecked Sendable {
    /// What matching a text came to.
    public enum Outcome: Sendable, Equatable {
        case matched
        case notMatched
        /// A limit ended the match before it knew: `reason` says which, such as
        /// "gave up after 10,000,000 steps".
        case gaveUp(reason: String)
    }

    /// Why a pattern does not compile, in PCRE2's words (`pcre2_get_error_message_8`), and where.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        /// Characters from the pattern's start to where PCRE2 found the mistake.
        public let offset: Int

        public init(reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }

        public var description: String { "\(reason) at offset \(offset)" }
    }

    /// Backtracking steps a match may take (`pcre2_set_match_limit_8`): PCRE2's default, which
    /// `^.*down` needs a tenth of against a 1 MiB body, and a catastrophic pattern reaches in about
    /// a fifth of a second of one core (compiled to machine code) or a second and a half (not).
    public static let stepLimit: UInt32 = 10_000_000
    /// Nested backtracking points a match may hold (`pcre2_set_depth_limit_8`): a repeated group
    /// over 100,000 parts of a text, more than any status line or document needs.
    public static let depthLimit: UInt32 = 100_000
    /// The memory, in KiB, that holding them may take (`pcre2_set_heap_limit_8`).
    public static let memoryLimitKiB: UInt32 = 32 << 10

    /// The pattern as written.
    public let pattern: String
    private let code: OpaquePointer

    /// Compiles `pattern` (`pcre2_compile_8`), then to machine code (`pcre2_jit_compile_8`); where
    /// PCRE2 has no compiler for this processor it interprets the pattern instead.
    public init(_ pattern: String) throws(SyntaxError) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = pattern.withCString { text in
            text.withMemoryRebound(to: UInt8.self, capacity: pattern.utf8.count + 1) {
                pcre2_compile_8($0, pattern.utf8.count, PCRE2_UTF | PCRE2_UCP, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            let before = String(decoding: pattern.utf8.prefix(errorOffset), as: UTF8.self)
            throw SyntaxError(reason: Self.message(errorCode), offset: before.count)
        }
        pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE)
        code = compiled
        self.pattern = pattern
    }

    /// Frees the compiled pattern (`pcre2_code_free_8`).
    deinit {
        pcre2_code_free_8(code)
    }

    /// Whether the pattern matches somewhere in `text` (`pcre2_match_8`), within the limits.
    ///
    /// Compiled code runs on a stack of 32 KiB; a match that outgrows it is run again by the
    /// interpreter, whose depth and memory limits are the ones that hold.
    public func firstMatch(in text: String) -> Outcome {
        guard let context = pcre2_match_context_create_8(nil) else { return .gaveUp(reason: Self.message(PCRE2_ERROR_NOMEMORY)) }
        defer { pcre2_match_context_free_8(context) }
        pcre2_set_match_limit_8(context, Self.stepLimit)
        pcre2_set_depth_limit_8(context, Self.depthLimit)
        pcre2_set_heap_limit_8(context, Self.memoryLimitKiB)
        // One pair of offsets: whether it matched is all that is asked, not where.
        guard let data = pcre2_match_data_create_8(1, nil) else { return .gaveUp(reason: Self.message(PCRE2_ERROR_NOMEMORY)) }
        defer { pcre2_match_data_free_8(data) }
        // A String's bytes are valid UTF-8 already: PCRE2 need not check 1 MiB of them again.
        var result = match(text, options: PCRE2_NO_UTF_CHECK, data: data, context: context)
        if result == PCRE2_ERROR_JIT_STACKLIMIT {
            result = match(text, options: PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data: data, context: context)
        }
        switch result {
        case 0...: return .matched
        case PCRE2_ERROR_NOMATCH: return .notMatched
        case PCRE2_ERROR_MATCHLIMIT: return .gaveUp(reason: "gave up after \(Self.grouped(Self.stepLimit)) steps")
        case PCRE2_ERROR_DEPTHLIMIT: return .gaveUp(reason: "gave up \(Self.grouped(Self.depthLimit)) levels deep")
        case PCRE2_ERROR_HEAPLIMIT: return .gaveUp(reason: "gave up at \(Self.memoryLimitKiB >> 10) MiB of memory")
        default: return .gaveUp(reason: Self.message(result))
        }
    }

    private func match(_ text: String, options: UInt32, data: OpaquePointer, context: OpaquePointer) -> Int32 {
        text.withCString { subject in
            subject.withMemoryRebound(to: UInt8.self, capacity: text.utf8.count + 1) {
                pcre2_match_8(code, $0, text.utf8.count, 0, options, data, context)
            }
        }
    }

    /// PCRE2's words for an error code (`pcre2_get_error_message_8`).
    private static func message(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, Int(length))), as: UTF8.self)
    }

    /// `10000000` as "10,000,000".
    private static func grouped(_ number: UInt32) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
