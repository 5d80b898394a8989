// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Vigil",
    products: [
        .library(name: "Vigil", targets: ["Vigil"]),
        .library(name: "VigilSensors", targets: ["VigilSensors"]),
        .library(name: "VigilPrometheus", targets: ["VigilPrometheus"]),
        .executable(name: "vigil", targets: ["vigil"]),
    ],
    targets: [
        .target(name: "CVigilCore"),
        .target(name: "Vigil", dependencies: ["CVigilCore"]),
        .target(name: "CLinuxSupport"),
        .target(name: "VigilSensors", dependencies: ["Vigil", "CLinuxSupport"]),
        .target(name: "VigilPrometheus", dependencies: ["Vigil", "VigilSensors", "CLinuxSupport"]),
        .executableTarget(name: "vigil", dependencies: ["Vigil", "VigilSensors", "VigilPrometheus"]),
        .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
        .executableTarget(
            name: "VigilBenchmarks",
            dependencies: ["Vigil", "VigilSensors", "VigilPrometheus", "CMallocCounter"],
            path: "Benchmarks/VigilBenchmarks"
        ),
        .target(name: "CFuzzSupport", path: "Fuzz/CFuzzSupport"),
        .executableTarget(
            name: "VigilFuzz",
            dependencies: ["VigilSensors", "VigilPrometheus", "CFuzzSupport"],
            path: "Fuzz/VigilFuzz"
        ),
        .testTarget(name: "VigilTests", dependencies: ["Vigil"]),
        .testTarget(name: "VigilSensorsTests", dependencies: ["VigilSensors", "Vigil", "CLinuxSupport"]),
        .testTarget(name: "VigilPrometheusTests", dependencies: ["VigilPrometheus", "VigilSensors", "Vigil"]),
    ],
    swiftLanguageModes: [.v6]
)
