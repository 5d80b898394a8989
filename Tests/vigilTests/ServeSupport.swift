import Testing
import VigilTestSupport

/// Starts `vigil ARGUMENTS serve --listen 127.0.0.1:0 SERVE_ARGUMENTS` and finds the port it prints.
func startServe(_ serveArguments: [String], globals: [String] = []) throws -> (ChildProcess, UInt16) {
    let child = try ChildProcess(vigil: globals + ["serve", "--listen", "127.0.0.1:0"] + serveArguments)
    var port: UInt16?
    let found = eventually(timeout: 30) {
        let text = child.standardError
        guard let range = text.range(of: "http://127.0.0.1:") else { return !child.isRunning }
        port = UInt16(text[range.upperBound...].prefix { $0.isNumber })
        return true
    }
    try #require(found && port != nil, "vigil serve did not start: \(child.standardError)")
    return (child, port!)
}

extension LoopbackClient {
    /// `GET path` as HTTP/1.0 and the body of the response (read to the end), or nil.
    static func get(port: UInt16, _ path: String) -> LoopbackClient.Response? {
        guard let client = try? LoopbackClient(port: port) else { return nil }
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        return client.readResponse()
    }
}
