import CFuzzSupport
import Glibc

// Without libFuzzer: `VigilFuzz TARGET FILE_OR_DIRECTORY…` replays inputs through one target (a regression run of a
// corpus or of a crash input). Under libFuzzer (Fuzz/run.sh), libFuzzer's own main drives LLVMFuzzerTestOneInput
// and this file does not run. Each target feeds bytes to one parser of outside bytes, which may reject them with an
// error but must never crash, hang or leak.
guard FuzzTarget.selected != nil else {
    let names = FuzzTarget.all.keys.sorted().joined(separator: ", ")
    print("usage: VigilFuzz TARGET [FILE | DIRECTORY]…\ntargets: \(names)")
    exit(2)
}

var cStrings = CommandLine.arguments.map { strdup($0) }
var argc = Int32(cStrings.count)
let status = cStrings.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) }
}
cStrings.forEach { free($0) }
exit(status)
