import CFuzzSupport
import Glibc

// usage: VigilFuzz TARGET [libFuzzer options] [CORPUS_DIR | FILE …]
// Each target feeds libFuzzer's bytes to one parser of outside bytes; a parser may reject input with an error but
// must never crash, hang or leak. The selected target is an immutable global so the C callback can reach it.
let arguments = CommandLine.arguments
guard arguments.count >= 2, let selectedTarget = FuzzTarget.all[arguments[1]] else {
    let names = FuzzTarget.all.keys.sorted().joined(separator: ", ")
    print("usage: VigilFuzz TARGET [libFuzzer options] [corpus…]\ntargets: \(names)")
    exit(2)
}

// libFuzzer sees the program name followed by its own options, without the target name.
var driverArguments = [arguments[0]] + arguments.dropFirst(2)
var cStrings = driverArguments.map { strdup($0) }
var argc = Int32(cStrings.count)
let status = cStrings.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        selectedTarget.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
cStrings.forEach { free($0) }
exit(status)
