import Glibc

/// Runs every scenario the options select and prints (and optionally writes) the report.
func runSuite(_ options: Options) async {
    if let seconds = options.soakSeconds {
        runSoak(seconds: seconds)
        return
    }
    let report = Report()
    let machine = machineDescription()
    print("Vigil benchmarks — \(machine)\(options.quick ? " — quick run" : "")")
    print(
        "Figures are per operation; '× baseline' divides by the closure-array baseline and '× limit' by the same work "
            + "called with no reference counting, both measured in this same run.")
    await runFanoutImmediate(options, report)
    runFanoutQueue(options, report)
    runContended(options, report)
    runChurn(options, report)
    runOperatorsChain(options, report)
    runMemory(options, report)
    runPingPong(options, report)
    runPublishLatency(options, report)
    runLockContended(options, report)
    runShareFanout(options, report)
    runFlatMapLatestSwitching(options, report)
    runMQTTThroughput(options, report)
    runScrapeLatency(options, report)
    runEventLoopTimers(options, report)
    if let path = options.jsonPath {
        let command = "swift run -c release VigilBenchmarks " + CommandLine.arguments.dropFirst().joined(separator: " ")
        guard writeFile(path, report.json(machine: machine, command: command)) else {
            print("cannot write \(path)")
            exit(1)
        }
        print("\nwrote \(path)")
    }
}

/// The CPU model and core count, for the report.
func machineDescription() -> String {
    var model = "unknown CPU"
    if let file = fopen("/proc/cpuinfo", "r") {
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = string(fromC: buffer)
            if line.hasPrefix("model name"), let colon = line.firstIndex(of: ":") {
                model = line[line.index(after: colon)...].trimmingCharacters()
                break
            }
        }
    }
    return "\(model), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores"
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == "\n" || $0 == " " }).reversed())
    }
}
