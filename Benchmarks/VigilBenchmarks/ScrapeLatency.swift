import Dispatch
import Glibc
import Vigil
import VigilPrometheus
import VigilSensors

/// `scrape.latency`: a keep-alive `GET /metrics` round trip to ``MetricsServer`` on loopback, against a bare
/// loopback echo of the same bytes (the limit: a blocking thread that answers each request with the prepared
/// response, no parsing or rendering) and against rendering alone, all in this run.
///
/// The exporter holds 200 gauges in 20 families, about the size of a laptop's exposition.
func runScrapeLatency(_ options: Options, _ report: Report) {
    let scenario = "scrape.latency"
    guard options.includes(scenario) else { return }
    let scrapes = options.quick ? 50 : 2000
    let exporter = MetricsExporter()
    var subjects: [BehaviorSubject<Double>] = []
    for family in 0..<20 {
        for series in 0..<10 {
            let subject = BehaviorSubject(Double(family * 10 + series) + 0.5)
            subjects.append(subject)
            _ = try? exporter.add(
                subject, name: "bench_metric_\(family)_celsius", help: "A benchmark gauge.",
                labels: ["device": "dev\(series)", "chip": "chip \"\(family)\""])
        }
    }
    let body = exporter.render()
    let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    let response = Array(
        ("HTTP/1.1 200 OK\r\nContent-Type: \(ExpositionFormat.contentType)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            + body).utf8)
    let parameter = "\(body.utf8.count) bytes"

    let render = sample(rounds: options.rounds, operations: scrapes) {
        for _ in 0..<scrapes { blackHole(exporter.render().utf8.count) }
    }

    let echo = BenchmarkEchoServer(response: response, requestLength: request.count)
    let limit = sampleTimed(rounds: options.rounds, operations: scrapes) {
        roundTrips(port: echo.port, request: request, responseLength: response.count, count: scrapes)
    }
    echo.stop()

    let loop = EventLoop()
    defer { loop.shutdown() }
    guard let address = try? ListenAddress(host: "127.0.0.1", port: 0) else { return }
    let server = MetricsServer(
        exporter: exporter, configuration: MetricsServer.Configuration(address: address), eventLoop: loop)
    guard (try? server.start()) != nil, let port = server.port else {
        print("scrape.latency: cannot start the server")
        return
    }
    let vigil = sampleTimed(rounds: options.rounds, operations: scrapes) {
        roundTrips(port: port, request: request, responseLength: response.count, count: scrapes)
    }
    server.stop()

    report.add(
        scenario, parameter, "limit", unit: "ns/scrape", limit, limit: limit,
        note: "loopback echo of the same response by a blocking thread, keep-alive")
    report.add(
        scenario, parameter, "render only", unit: "ns/scrape", render, limit: limit,
        note: "MetricsExporter.render(), no I/O")
    report.add(
        scenario, parameter, "vigil", unit: "ns/scrape", vigil, limit: limit,
        note:
            "MetricsServer on its own EventLoop, keep-alive GET /metrics; \(format(vigil.median / render.median))× render"
    )
    withExtendedLifetime(subjects) {}
}

/// Sends `count` requests on one connection, reading each response fully; returns elapsed nanoseconds.
private func roundTrips(port: UInt16, request: [UInt8], responseLength: Int, count: Int) -> UInt64 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let start = now()
    for index in 0..<count {
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var received = 0
        while received < responseLength {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard got > 0 else {
                print("scrape.latency: the connection closed after \(index) scrapes (errno \(errno))")
                return now() - start
            }
            received += got
        }
    }
    return now() - start
}

/// A blocking loopback server on its own thread that answers every request of `requestLength` bytes with
/// `response`: the limit a scrape's round trip is measured against.
private final class BenchmarkEchoServer: Sendable {
    let port: UInt16
    private let listener: Int32

    init(response: [UInt8], requestLength: Int) {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 8) == 0
            }
        }
        port = UInt16(bigEndian: address.sin_port)
        DispatchQueue.global().async {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var one: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                var buffer = [UInt8](repeating: 0, count: 4096)
                serving: while true {
                    var received = 0
                    while received < requestLength {
                        let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                        guard got > 0 else { break serving }
                        received += got
                    }
                    _ = response.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                }
                close(client)
            }
        }
    }

    /// Stops accepting (the blocked `accept` returns an error).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
