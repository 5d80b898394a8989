import Foundation
import Testing
import VigilTestSupport

/// Starts `vigil ARGUMENTS serve --listen 127.0.0.1:0 SERVE_ARGUMENTS` and finds the port it prints.
func startServe(_ serveArguments: [String], globals: [String] = []) throws -> (ChildProcess, UInt16) {
    let child = try ChildProcess(vigil: globals + ["serve", "--listen", "127.0.0.1:0"] + serveArguments)
    var port: UInt16?
    let found = eventually(timeout: 30) {
        let text = child.standardError
        guard let range = text.range(of: "://127.0.0.1:") else { return !child.isRunning }
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

/// Starts `prometheus` with `prometheus.yml` in `scratch` on a free port; returns once it answers HTTP.
///
/// A port found free can be taken before Prometheus binds it (the local port of any outgoing connection, say), so a
/// server that finds its port in use is started again on a new one.
func startPrometheus(_ prometheus: String, in scratch: TemporaryDirectory) async throws -> (
    ChildProcess, UInt16
) {
    for _ in 0..<5 {
        let port = try freeLoopbackPort()
        let server = try ChildProcess(
            prometheus,
            [
                "--config.file=\(scratch.path)/prometheus.yml", "--storage.tsdb.path=\(scratch.path)/data",
                "--web.listen-address=127.0.0.1:\(port)",
            ])
        let answered = await eventually(within: 60) {
            LoopbackClient.get(port: port, "/-/ready") != nil || !server.isRunning
        }
        if answered && server.isRunning { return (server, port) }
        await server.stop()
        try #require(
            server.standardError.contains("address already in use"),
            "prometheus did not start: \(server.standardError.suffix(2000))")
    }
    throw PrometheusStartError()
}

/// Prometheus found every port it was given in use.
struct PrometheusStartError: Error {}

/// The value of the instant query `expression` on the Prometheus at `port`: its first sample, or nil.
func prometheusValue(port: UInt16, _ expression: String) -> Double? {
    let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    guard let body = LoopbackClient.get(port: port, "/api/v1/query?query=\(encoded)")?.body,
        let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
        let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
        let value = result.first?["value"] as? [Any], let text = value.last as? String
    else { return nil }
    return Double(text)
}
