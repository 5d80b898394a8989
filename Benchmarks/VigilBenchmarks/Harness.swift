import Dispatch
import Glibc

/// Command-line options of the suite.
struct Options {
    var quick = false
    var filter: String?
    var jsonPath: String?
    var soakSeconds: Int?

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                options.quick = true
            case "--filter" where index + 1 < arguments.count:
                index += 1
                options.filter = arguments[index]
            case "--json" where index + 1 < arguments.count:
                index += 1
                options.jsonPath = arguments[index]
            case "--soak" where index + 1 < arguments.count:
                index += 1
                options.soakSeconds = Int(arguments[index])
            case "--help", "-h":
                print(
                    """
                    usage: swift run -c release VigilBenchmarks [--quick] [--filter NAME] [--json FILE] [--soak SECONDS]
                      --quick          a few-second smoke run (smaller workloads, fewer rounds)
                      --filter NAME    only scenarios whose name contains NAME
                      --json FILE      also write a machine-readable report to FILE
                      --soak SECONDS   run the soak test instead (descriptor, thread and memory growth)
                    """)
                exit(0)
            default:
                print("unknown argument: \(arguments[index]) (see --help)")
                exit(2)
            }
            index += 1
        }
        return options
    }

    /// Rounds measured after one warm-up round.
    var rounds: Int { quick ? 1 : 5 }

    /// Scales a workload down in quick mode (a smoke run of a few seconds: it checks that every scenario runs).
    func scaled(_ count: Int) -> Int { quick ? max(count / 200, 1) : count }

    func includes(_ scenario: String) -> Bool {
        guard let filter else { return true }
        return scenario.contains(filter)
    }
}

/// Per-operation timings of several rounds.
struct Samples {
    let values: [Double]

    var median: Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { values.min() ?? 0 }
    var max: Double { values.max() ?? 0 }
}

/// The monotonic clock in nanoseconds.
@inline(__always)
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Runs `body` once to warm up, then `rounds` times, and returns nanoseconds per operation of each round.
func sample(rounds: Int, operations: Int, _ body: () -> Void) -> Samples {
    body()
    var values: [Double] = []
    for _ in 0..<rounds {
        let start = now()
        body()
        values.append(Double(now() - start) / Double(operations))
    }
    return Samples(values: values)
}

/// Like ``sample(rounds:operations:_:)`` for a body that times itself and returns elapsed nanoseconds.
func sampleTimed(rounds: Int, operations: Int, _ body: () -> UInt64) -> Samples {
    _ = body()
    return Samples(values: (0..<rounds).map { _ in Double(body()) / Double(operations) })
}

/// Keeps a value observable so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The text of a NUL-terminated C buffer.
func string(fromC buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
