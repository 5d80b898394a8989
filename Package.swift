// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Vigil",
    products: [
        .library(name: "Vigil", targets: ["Vigil"]),
        .library(name: "VigilSensors", targets: ["VigilSensors"]),
        .library(name: "VigilMQTT", targets: ["VigilMQTT"]),
        .library(name: "VigilTesting", targets: ["VigilTesting"]),
        .library(name: "VigilPrometheus", targets: ["VigilPrometheus"]),
        .executable(name: "vigil", targets: ["vigil"]),
    ],
    targets: [
        .target(name: "CVigilCore"),
        .target(name: "Vigil", dependencies: ["CVigilCore"]),
        .target(name: "VigilTesting", dependencies: ["Vigil"]),
        .target(name: "CLinuxSupport"),
        .target(name: "VigilSensors", dependencies: ["Vigil", "CLinuxSupport"]),
        .target(name: "VigilMQTT", dependencies: ["Vigil", "VigilSensors"]),
        .target(name: "VigilPrometheus", dependencies: ["Vigil", "VigilSensors", "CLinuxSupport"]),
        .executableTarget(name: "vigil", dependencies: ["Vigil", "VigilSensors", "VigilMQTT", "VigilPrometheus"]),
        .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
        .executableTarget(
            name: "VigilBenchmarks",
            dependencies: ["Vigil", "VigilSensors", "VigilMQTT", "VigilPrometheus", "CLinuxSupport", "CMallocCounter"],
            path: "Benchmarks/VigilBenchmarks",
            // LLVM's function merging turns one of two identical subscriber closures (one per subject type) into a
            // jump to the other: an extra branch per delivery for one subject only, which made PublishSubject look
            // twice as slow as BehaviorSubject. Not a library target: users never build it.
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"])]
        ),
        .target(name: "CFuzzSupport", path: "Fuzz/CFuzzSupport"),
        .executableTarget(
            name: "VigilFuzz",
            dependencies: ["VigilSensors", "VigilMQTT", "VigilPrometheus", "CFuzzSupport"],
            path: "Fuzz/VigilFuzz"
        ),
        // The tests' own C: what they need of glibc's GNU extensions (CPU affinity); not a product.
        .target(name: "CVigilTestSupport", path: "Tests/CVigilTestSupport"),
        // What more than one test target needs, once: threads of their own, waits, the process runner and probes,
        // temporary directories, fake sysfs/procfs/IIO trees and machines, network namespaces, brokers and
        // clients; not a product.
        .target(
            name: "VigilTestSupport", dependencies: ["Vigil", "VigilSensors", "CVigilTestSupport"],
            path: "Tests/VigilTestSupport"),
        .testTarget(name: "VigilTests", dependencies: ["Vigil", "VigilTesting", "VigilTestSupport"]),
        .testTarget(
            name: "VigilSensorsTests",
            dependencies: ["VigilSensors", "Vigil", "VigilTesting", "CLinuxSupport", "VigilTestSupport"]
        ),
        .testTarget(name: "VigilMQTTTests", dependencies: ["VigilMQTT", "VigilSensors", "Vigil", "VigilTestSupport"]),
        .testTarget(
            name: "VigilPrometheusTests",
            dependencies: ["VigilPrometheus", "VigilSensors", "Vigil", "VigilTestSupport"]
        ),
        // The `vigil` tool's tests: they run the built executable as a child process.
        .testTarget(name: "vigilTests", dependencies: ["VigilSensors", "Vigil", "VigilTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
