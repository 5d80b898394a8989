import Foundation
import Testing
import VigilTestSupport

/// The counters `vigil serve` exports for Prometheus to rate, checked against the kernel's own files read around the
/// scrape on this machine.
@Suite(.timeLimit(.minutes(5)))
struct ServeCountersTests {
    /// Each core's seconds per mode, in `USER_HZ` (100) from `/proc/stat`.
    static func cpuSeconds() -> [String: Double] {
        let modes = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
        var seconds: [String: Double] = [:]
        for line in (readWholeFile("/proc/stat") ?? "").split(separator: "\n") where line.hasPrefix("cpu") {
            let fields = line.split(separator: " ")
            guard fields[0].count > 3 else { continue }
            let cpu = fields[0].dropFirst(3)
            for (mode, ticks) in zip(modes, fields.dropFirst()) {
                seconds[#"vigil_cpu_seconds_total{cpu="\#(cpu)",mode="\#(mode)"}"#] = (Double(ticks) ?? -1) / 100
            }
        }
        return seconds
    }

    /// Lies between the kernel's counters read before and after it: node_exporter's model, a rate over any window.
    @Test func cpuSecondsAreTheKernelsCountersAndLoadIsTheKernelsAverage() async throws {
        let before = Self.cpuSeconds()
        let (serve, port) = try startServe(["cpu"])
        var exposition = ""
        #expect(
            eventually(timeout: 20) {
                exposition = LoopbackClient.get(port: port, "/metrics")?.body ?? ""
                return exposition.contains("vigil_cpu_seconds_total{")
            }, "\(exposition)")
        let after = Self.cpuSeconds()
        let loads = (readWholeFile("/proc/loadavg") ?? "").split(separator: " ").prefix(3).compactMap { Double($0) }
        var samples: [String: Double] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        #expect(exposition.contains("# TYPE vigil_cpu_seconds_total counter"))
        #expect(before.count >= 8 && Set(before.keys) == Set(samples.keys.filter { $0.hasPrefix("vigil_cpu_sec") }))
        for (series, earlier) in before {
            let value = try #require(samples[series], "\(series) missing")
            let later = after[series] ?? earlier
            // The kernel documents that idle and iowait may step back a little (NO_HZ idle accounting).
            let slack = series.contains("idle") || series.contains("iowait") ? 0.1 : 0
            #expect(
                earlier - slack <= value && value <= later + slack, "\(series): \(earlier) ≤ \(value) ≤ \(later)")
        }
        for (name, kernel) in zip(["vigil_load1", "vigil_load5", "vigil_load15"], loads) {
            let value = try #require(samples[name], "\(name) missing")
            #expect(abs(value - kernel) <= 0.5, "\(name) \(value), /proc/loadavg \(kernel)")
        }
        #expect(await serve.stop() == 143)
    }

    /// Network traffic counters per interface, at or above the kernel's read before the scrape; a file system
    /// labelled by the mount point holding it and by the path read.
    @Test func networkCountersAndFileSystemsByMountPoint() async throws {
        let before = try #require(readWholeFile("/proc/net/dev")?.split(separator: "\n").first { $0.contains("lo:") })
        let loBytes = Double(before.split(separator: ":")[1].split(separator: " ")[0]) ?? .infinity
        let (serve, port) = try startServe(["network", "storage"])
        var exposition = ""
        #expect(
            eventually(timeout: 20) {
                exposition = LoopbackClient.get(port: port, "/metrics")?.body ?? ""
                return exposition.contains("vigil_network_receive_bytes_total{")
                    && exposition.contains("vigil_filesystem_size_bytes{")
            }, "\(exposition)")
        let lines = exposition.split(separator: "\n")
        let lo = lines.first { $0.hasPrefix(#"vigil_network_receive_bytes_total{interface="lo"} "#) }
        let value = lo.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
        #expect(value >= loBytes, "\(lo ?? "no lo line"): /proc/net/dev said \(loBytes) before")
        for family in ["receive", "transmit"] {
            for field in ["bytes", "packets", "errs", "drop"] {
                #expect(exposition.contains("# TYPE vigil_network_\(family)_\(field)_total counter"))
            }
        }
        #expect(
            lines.contains { $0.hasPrefix(#"vigil_filesystem_size_bytes{mountpoint="/",path="/"} "#) }, "\(exposition)")
        #expect(await serve.stop() == 143)
    }
}
