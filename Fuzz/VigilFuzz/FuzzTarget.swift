import Glibc
import VigilSensors

/// libFuzzer's entry point: runs the selected target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.selected?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// One parser of outside bytes, fed whatever libFuzzer generates.
struct FuzzTarget: Sendable {
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    /// The target named by `VIGIL_FUZZ_TARGET` (under libFuzzer, whose main owns the arguments) or by the first
    /// argument (replaying files without libFuzzer).
    static let selected: FuzzTarget? = {
        if let name = getenv("VIGIL_FUZZ_TARGET") { return all[String(cString: name)] }
        return CommandLine.arguments.count >= 2 ? all[CommandLine.arguments[1]] : nil
    }()

    /// Every target, by the name `Fuzz/run.sh` takes (and the name of its seed corpus folder in `Fuzz/Corpus`).
    static let all: [String: FuzzTarget] = [
        "rtnetlink": FuzzTarget { bytes in
            // Parse a datagram as if the kernel sent it, and apply it to a mirror that reads no sysfs.
            var mirror = NetworkMirror(sysfsRoot: nil)
            mirror.apply(RouteMessageParser.parse(bytes).envelopes.map(\.message))
            _ = mirror.path
        },
        "uevent": FuzzTarget { bytes in
            _ = UeventParser.parse(bytes)
        },
        "inotify": FuzzTarget { bytes in
            _ = try? InotifyEvent.parse(bytes)
        },
    ]
}
