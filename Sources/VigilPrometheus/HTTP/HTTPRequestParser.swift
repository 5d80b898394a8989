/// Parses HTTP/1.x request heads from the bytes a client sent: a pure function of the bytes, fuzzed.
///
/// It reads a request line (`METHOD SP TARGET SP HTTP/1.x`), header fields (`name: value`) and the empty line that
/// ends them, accepting a bare LF where CRLF belongs and skipping empty lines before the request line, as RFC 9112
/// allows. A `Content-Length` body is counted (the caller discards it); `Transfer-Encoding` is refused, as are
/// obsolete line folding, whitespace before a colon, control characters, a head or body beyond the limits, and a
/// missing (HTTP/1.1), repeated or invalid `Host` (RFC 9112 §3.2). Memory
/// use is bounded by the limits: the caller keeps at most ``Limits/headBytes`` plus ``Limits/bodyBytes`` unparsed.
package enum HTTPRequestParser {
    /// The bounds a request must stay within.
    package struct Limits: Hashable, Sendable {
        /// The most bytes the head (request line, fields and the empty line) may take.
        package var headBytes: Int
        /// The most header fields.
        package var headerCount: Int
        /// The largest body (`Content-Length`) accepted and skipped.
        package var bodyBytes: Int

        package init(headBytes: Int = 8192, headerCount: Int = 100, bodyBytes: Int = 8192) {
            self.headBytes = headBytes
            self.headerCount = headerCount
            self.bodyBytes = bodyBytes
        }
    }

    /// What the bytes so far make.
    package enum Outcome: Hashable, Sendable {
        /// Not a whole request yet; read more.
        case incomplete
        /// A whole request (and its body, if any) in the first `consumed` bytes.
        case request(HTTPRequest, consumed: Int)
        /// The bytes are not a request this server accepts.
        case failure(Failure)
    }

    /// Why a request is refused, each with the status a server answers.
    package enum Failure: Error, Hashable, Sendable {
        /// Not HTTP/1.x syntax: 400.
        case malformed(String)
        /// The head is longer than the limit, or has too many fields: 431.
        case headersTooLarge
        /// The body is longer than the limit: 413.
        case bodyTooLarge
        /// A version other than HTTP/1.0 or HTTP/1.1: 505.
        case unsupportedVersion

        /// The HTTP status code for this failure.
        package var status: Int {
            switch self {
            case .malformed: return 400
            case .headersTooLarge: return 431
            case .bodyTooLarge: return 413
            case .unsupportedVersion: return 505
            }
        }
    }

    /// Parses the first request in `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: What the client sent and nothing has consumed yet.
    ///   - limits: The bounds the request must keep.
    /// - Returns: ``Outcome/incomplete`` until a whole head and body are there, then the request and how many
    ///   bytes it took, or why it is refused.
    package static func parse(_ bytes: some Collection<UInt8>, limits: Limits = Limits()) -> Outcome {
        let buffer = Array(bytes.prefix(limits.headBytes + 1))
        var position = 0
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        while position < buffer.count, buffer[position] == 0x0D || buffer[position] == 0x0A {
            if buffer[position] == 0x0D, position + 1 < buffer.count, buffer[position + 1] != 0x0A {
                return .failure(.malformed("a bare CR"))
            }
            position += 1
            if position > limits.headBytes { return .failure(.headersTooLarge) }
        }
        var lines: [ArraySlice<UInt8>] = []
        while true {
            guard let newline = buffer[position...].firstIndex(of: 0x0A) else {
                return buffer.count > limits.headBytes ? .failure(.headersTooLarge) : .incomplete
            }
            // Leading empty lines count too, so the head always fits in the bytes looked at.
            if newline + 1 > limits.headBytes { return .failure(.headersTooLarge) }
            var line = buffer[position..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            position = newline + 1
            if line.isEmpty { break }
            lines.append(line)
            if lines.count > limits.headerCount + 1 { return .failure(.headersTooLarge) }
        }
        guard let requestLine = lines.first else { return .failure(.malformed("no request line")) }
        let start: (method: String, target: String, minor: Int)
        switch parseRequestLine(requestLine) {
        case .success(let parsed): start = parsed
        case .failure(let failure): return .failure(failure)
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            switch parseField(line) {
            case .success(let field): headers.append(field)
            case .failure(let failure): return .failure(failure)
            }
        }
        var request = HTTPRequest(
            method: start.method, target: start.target, minorVersion: start.minor, headers: headers, bodyLength: 0)
        if request.header("Transfer-Encoding") != nil {
            return .failure(.malformed("Transfer-Encoding in a request is not supported"))
        }
        // RFC 9112 §3.2: an HTTP/1.1 request without Host, any request with two, or one with an invalid value is 400.
        let hosts = headers.filter { $0.name.lowercased() == "host" }.map(\.value)
        if hosts.count > 1 { return .failure(.malformed("more than one Host header field")) }
        if hosts.isEmpty, start.minor >= 1 { return .failure(.malformed("an HTTP/1.1 request without Host")) }
        if let host = hosts.first, !host.utf8.allSatisfy(isHostCharacter) {
            return .failure(.malformed("an invalid Host"))
        }
        let lengths = headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
        if let length = lengths.first {
            guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.count <= 18,
                length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(length)
            else { return .failure(.malformed("an invalid Content-Length")) }
            guard count <= limits.bodyBytes else { return .failure(.bodyTooLarge) }
            request.bodyLength = count
        }
        guard position + request.bodyLength <= bytes.count else { return .incomplete }
        return .request(request, consumed: position + request.bodyLength)
    }

    private static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) -> Result<(method: String, target: String, minor: Int), Failure> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.malformed("a request line is METHOD TARGET VERSION")) }
        let method = parts[0]
        let target = parts[1]
        let version = parts[2]
        guard !method.isEmpty, method.allSatisfy(isTokenCharacter) else {
            return .failure(.malformed("an invalid method"))
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(.malformed("an invalid request target"))
        }
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, Array(version.prefix(5)) == prefix,
            let major = digit(version[version.startIndex + 5]), version[version.startIndex + 6] == 0x2E,
            let minor = digit(version[version.startIndex + 7])
        else { return .failure(.malformed("an invalid HTTP version")) }
        guard major == 1 else { return .failure(.unsupportedVersion) }
        return .success((String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), minor))
    }

    private static func parseField(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), Failure> {
        if line.first == 0x20 || line.first == 0x09 { return .failure(.malformed("obsolete line folding")) }
        guard let colon = line.firstIndex(of: 0x3A) else {
            return .failure(.malformed("a header field without a colon"))
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            return .failure(.malformed("an invalid header field name"))
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(.malformed("a control character in a header field"))
        }
        return .success((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    /// A `tchar` of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A character of a Host value (RFC 3986 `host [ ":" port ]`): unreserved, sub-delims, `%`, `:`, `[` and `]`.
    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("-._~!$&'()*+,;=%:[]".utf8).contains(byte)
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }
}
