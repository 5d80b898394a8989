/// One parsed HTTP/1.x request head: what ``HTTPRequestParser`` returns.
package struct HTTPRequest: Hashable, Sendable {
    /// The method, case-sensitive as HTTP defines it (`GET`, `HEAD`, …).
    package var method: String
    /// The request target as sent (`/metrics?x=1`, or an absolute URI).
    package var target: String
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    package var minorVersion: Int
    /// The header fields in order, names as sent, values without surrounding whitespace.
    package var headers: [(name: String, value: String)]
    /// The length of the body that followed the head (read and discarded), from `Content-Length`.
    package var bodyLength: Int

    package init(
        method: String, target: String, minorVersion: Int, headers: [(name: String, value: String)], bodyLength: Int
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.bodyLength = bodyLength
    }

    /// The path of the target: without the query, and without scheme and authority for an absolute URI.
    package var path: String {
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let authority = rest[rest.index(colon, offsetBy: 3)...]
            rest = authority.firstIndex(of: "/").map { authority[$0...] } ?? "/"
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        return String(rest)
    }

    /// The value of the first header named `name` (compared without case), if any.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`, HTTP/1.0 only
    /// with `Connection: keep-alive`.
    package var keepsAlive: Bool {
        let options = (header("Connection") ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: " \t")
        }
        if options.contains("close") { return false }
        return minorVersion >= 1 || options.contains("keep-alive")
    }

    package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.bodyLength == rhs.bodyLength && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(minorVersion)
        hasher.combine(bodyLength)
        for header in headers {
            hasher.combine(header.name)
            hasher.combine(header.value)
        }
    }
}

extension Substring {
    /// The text without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
