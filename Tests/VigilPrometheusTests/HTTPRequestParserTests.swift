import Testing
import VigilPrometheus

@Suite(.timeLimit(.minutes(10)))
struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits)
    }

    @Test func parsesAPrometheusScrape() throws {
        let text = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9464\r\nAccept-Encoding: gzip\r\nX-Empty:\r\n\r\nNEXT"
        guard case .request(let request, let consumed) = parse(text) else {
            Issue.record("not parsed: \(parse(text))")
            return
        }
        #expect(request.method == "GET")
        #expect(request.path == "/metrics")
        #expect(request.minorVersion == 1)
        #expect(request.header("host") == "127.0.0.1:9464")
        #expect(request.header("X-Empty") == "")
        #expect(request.keepsAlive)
        #expect(consumed == text.utf8.count - 4)
    }

    @Test(arguments: [
        ("GET /metrics HTTP/1.1\r\nHost: a\r\n", "no blank line yet"), ("GET /met", "half a request line"),
        ("", "nothing"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc", "part of the body"),
    ])
    func waitsForTheRestOfARequest(text: String, _: String) {
        #expect(parse(text) == .incomplete)
    }

    @Test(arguments: [
        "GET /metrics\r\n\r\n", "GET  /metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTP/1.1 extra\r\n\r\n",
        "G(T /metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTX/1.1\r\n\r\n", "GET /metrics HTTP/1.x\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", "GET /metrics HTTP/1.1\r\nName : v\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", "GET /metrics HTTP/1.1\r\nA: b\u{1}c\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "GET /m\u{7F} HTTP/1.1\r\n\r\n",
        "\r\u{0}GET / HTTP/1.1\r\n\r\n",
    ])
    func refusesMalformedRequestsWith400(text: String) {
        guard case .failure(let failure) = parse(text) else {
            Issue.record("accepted \(text.debugDescription): \(parse(text))")
            return
        }
        #expect(failure.status == 400)
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request without Host, any request with two, or an invalid Host is 400; HTTP/1.0
    /// may leave it out.
    @Test(arguments: [
        ("GET /metrics HTTP/1.1\r\n\r\n", false), ("GET /metrics HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", false),
        ("GET /metrics HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", false),
        ("GET /metrics HTTP/1.1\r\nHost: a b\r\n\r\n", false), ("GET /metrics HTTP/1.1\r\nHost: a/b\r\n\r\n", false),
        ("GET /metrics HTTP/1.1\r\nHost: [::1]:9464\r\n\r\n", true), ("GET /metrics HTTP/1.0\r\n\r\n", true),
        ("GET /metrics HTTP/1.1\r\nHost:\r\n\r\n", true),
    ])
    func validatesHost(text: String, accepted: Bool) {
        switch parse(text) {
        case .request: #expect(accepted, "\(text.debugDescription)")
        case .failure(let failure): #expect(!accepted && failure.status == 400, "\(text.debugDescription)")
        case .incomplete: Issue.record("incomplete: \(text.debugDescription)")
        }
    }

    @Test func refusesAnOversizedHeadWith431WhetherOrNotItEnded() {
        let limits = HTTPRequestParser.Limits(headBytes: 256, headerCount: 4, bodyBytes: 16)
        let long = "GET /metrics HTTP/1.1\r\nX: " + String(repeating: "a", count: 300)
        #expect(parse(long, limits: limits) == .failure(.headersTooLarge))
        #expect(parse(long + "\r\n\r\n", limits: limits) == .failure(.headersTooLarge))
        let many = "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 6) + "\r\n"
        #expect(parse(many, limits: limits) == .failure(.headersTooLarge))
        let blankLines = String(repeating: "\r\n", count: 200) + "GET / HTTP/1.1\r\n\r\n"
        #expect(parse(blankLines, limits: limits) == .failure(.headersTooLarge))
        #expect(
            parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n", limits: limits) == .failure(.bodyTooLarge)
        )
    }

    @Test func answersOtherVersionsWith505() {
        #expect(parse("GET / HTTP/2.0\r\n\r\n") == .failure(.unsupportedVersion))
    }

    @Test func acceptsBareLineFeedsLeadingBlankLinesAndABody() {
        let text = "\r\n\nPOST /x?y HTTP/1.0\nContent-Length: 3\n\nabcGET"
        guard case .request(let request, let consumed) = parse(text) else {
            Issue.record("not parsed")
            return
        }
        #expect(request.path == "/x")
        #expect(request.bodyLength == 3)
        #expect(!request.keepsAlive)
        #expect(consumed == text.utf8.count - "GET".utf8.count)
    }

    @Test(arguments: [
        ("HTTP/1.1", "", true), ("HTTP/1.1", "close", false), ("HTTP/1.1", "Keep-Alive, Close", false),
        ("HTTP/1.0", "", false), ("HTTP/1.0", "keep-alive", true),
    ])
    func decidesKeepAliveByVersionAndConnection(version: String, connection: String, keepsAlive: Bool) {
        let field = connection.isEmpty ? "" : "Connection: \(connection)\r\n"
        guard case .request(let request, _) = parse("GET / \(version)\r\nHost: a\r\n\(field)\r\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(request.keepsAlive == keepsAlive)
    }

    @Test(arguments: [
        ("/metrics", "/metrics"), ("/metrics?name[]=up", "/metrics"), ("http://host:9/metrics?x", "/metrics"),
        ("http://host", "/"), ("*", "*"),
    ])
    func takesThePathFromTheTarget(target: String, path: String) {
        let request = HTTPRequest(method: "GET", target: target, minorVersion: 1, headers: [], bodyLength: 0)
        #expect(request.path == path)
    }
}
