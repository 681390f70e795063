// Every `@convention(c)` function libcurl calls for a `CurlTransfer`.

import CCurl
import Locking

/// Points libcurl's header and body callbacks at `transfer` (`CURLOPT_HEADERFUNCTION`,
/// `CURLOPT_WRITEFUNCTION`).
func receive(into transfer: CurlTransfer, from easy: UnsafeMutableRawPointer, with curl: statedeck_curl_api) {
    // Unretained: the handle calls back only while the engine's thread runs the transfer, and
    // the engine holds the transfer meanwhile.
    let box = Unmanaged.passUnretained(transfer).toOpaque()
    statedeck_curl_set_receiver(curl, easy, CURLOPT_HEADERFUNCTION, receiveHeader)
    statedeck_curl_set_pointer(curl, easy, CURLOPT_HEADERDATA, box)
    statedeck_curl_set_receiver(curl, easy, CURLOPT_WRITEFUNCTION, receiveBody)
    statedeck_curl_set_pointer(curl, easy, CURLOPT_WRITEDATA, box)
}

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(pointer!).takeUnretainedValue()
}

/// One header line, status lines included; a new status line (a redirect, `100 Continue`)
/// starts the answer over. Headers over the transfer's limits stop the exchange.
///
/// Read as bytes, strings made only of the parts kept: it runs for every header of every check.
private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ cls: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    let line = bytes[..<end]
    let target = transfer(cls)
    if let replies = target.replyLines { return keepReply(line, length, of: target, in: replies) }
    let isStatusLine = line.starts(with: "HTTP/".utf8)
    if isStatusLine {
        // "HTTP/1.1 503 Service Unavailable": the reason is the third part, if any.
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
        target.response = HTTPClientResponse(reason: parts.count == 3 ? String(decoding: parts[2], as: UTF8.self) : "")
        target.headerSize = 0
    }
    target.headerSize += length
    guard target.headerSize <= target.maxHeaderSize else {
        return refuse(target, .headersTooLarge, "the headers are larger than \(target.maxHeaderSize) bytes")
    }
    if !isStatusLine, let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        guard target.response.headers.count < target.maxHeaderCount else {
            return refuse(target, .tooManyHeaders, "there are more than \(target.maxHeaderCount) headers")
        }
        let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        target.response.headers.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
    return length
}

/// One line of a mail server's, kept in `replies`. A first line that is not an SMTP reply (three
/// digits) stops the session at once: libcurl would wait for one until the timeout.
private func keepReply(_ line: UnsafeRawBufferPointer.SubSequence, _ length: Int, of target: CurlTransfer,
                       in replies: Locked<[String]>) -> Int {
    let text = String(decoding: line, as: UTF8.self)
    let isFirst = replies.withLock { lines in
        defer { lines.append(text) }
        return lines.isEmpty
    }
    guard isFirst, !(line.count >= 3 && line.prefix(3).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
        return length
    }
    return refuse(target, .invalidAnswer, "the server's greeting is not an SMTP reply")
}

/// A piece of the body; the body over the transfer's limit stops the exchange.
private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ cls: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    let target = transfer(cls)
    guard target.response.body.count + length <= target.maxBodySize else {
        return refuse(target, .bodyTooLarge, "the body is larger than \(target.maxBodySize) bytes")
    }
    target.response.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// Stops the exchange for `reason`: a callback returning less than given makes libcurl fail with
/// `CURLE_WRITE_ERROR`, which the transfer reports as this refusal.
private func refuse(_ target: CurlTransfer, _ reason: HTTPClientError.Reason, _ message: String) -> Int {
    target.refusal = HTTPClientError(reason, message: message)
    return 0
}
