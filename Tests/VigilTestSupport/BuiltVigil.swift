import Foundation

/// The `vigil` executable this build made, for the tests that run it as a child process; nil when it was not built.
///
/// Found upward from the test executable, because the build folder differs between `swift test` and the sanitizer
/// builds.
package let builtVigil: String? = {
    guard let testExecutable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
        return nil
    }
    var directory = URL(fileURLWithPath: testExecutable).deletingLastPathComponent()
    while directory.path != "/" {
        for candidate in ["vigil", "debug/vigil"] {
            let path = directory.appendingPathComponent(candidate).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        directory.deleteLastPathComponent()
    }
    return nil
}()
