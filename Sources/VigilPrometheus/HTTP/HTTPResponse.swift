/// The bytes of one HTTP/1.1 response.
package struct HTTPResponse: Sendable {
    /// The status code.
    package var status: Int
    /// Extra header fields, after `Content-Type` and `Content-Length`.
    package var headers: [(name: String, value: String)]
    /// The body; for a `HEAD` request its length is announced and nothing is sent.
    package var body: [UInt8]
    /// The body's media type.
    package var contentType: String

    package init(
        status: Int, contentType: String = "text/plain; charset=utf-8", headers: [(name: String, value: String)] = [],
        body: String
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = Array(body.utf8)
    }

    /// The reason phrase of the statuses the server sends.
    package static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }

    /// The response as sent: status line, fields, blank line and, unless `includeBody` is false, the body.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open; `Connection: close` is sent otherwise.
    ///   - includeBody: False for `HEAD`: the fields announce the body's length, and it is not sent.
    package func serialized(keepAlive: Bool, includeBody: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (includeBody ? body : [])
    }
}
