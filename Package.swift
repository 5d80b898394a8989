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
            dependencies: ["Vigil", "VigilSensors", "VigilMQTT", "VigilPrometheus", "CMallocCounter"],
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
        // What more than one test target needs (threads of their own, reading a file whole, finding the built `vigil`);
        // not a product.
        .target(name: "VigilTestSupport", path: "Tests/VigilTestSupport"),
        // The conformance checker every source must pass (`checkSourceConformance`), with the descriptor and event-loop
        // probes it uses; apart from VigilTestSupport so the core's tests do not build the sensors.
        .target(
            name: "VigilSensorsTestSupport", dependencies: ["VigilSensors", "Vigil", "VigilTestSupport"],
            path: "Tests/VigilSensorsTestSupport"),
        .testTarget(name: "VigilTests", dependencies: ["Vigil", "VigilTesting", "VigilTestSupport"]),
        .testTarget(
            name: "VigilSensorsTests",
            dependencies: ["VigilSensors", "Vigil", "CLinuxSupport", "VigilTestSupport", "VigilSensorsTestSupport"]),
        .testTarget(name: "VigilMQTTTests", dependencies: ["VigilMQTT", "VigilSensors", "Vigil", "VigilTestSupport"]),
        .testTarget(
            name: "VigilPrometheusTests",
            dependencies: ["VigilPrometheus", "VigilSensors", "Vigil", "VigilTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
