import Glibc

/// The whole content of the file at `path` as text (invalid UTF-8 repaired), or nil when it cannot be opened.
///
/// Plain `read(2)` until end of file: in this toolchain, Foundation's `String(contentsOfFile:)` and
/// `FileManager.contents(atPath:)` leaked their read buffer in these tests (LeakSanitizer, under
/// `swift test --sanitize=address`).
package func readWholeFile(_ path: String) -> String? {
    readWholeBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// The whole content of the file at `path` as bytes, or nil when it cannot be opened; see ``readWholeFile(_:)``.
package func readWholeBytes(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += chunk[0..<count]
    }
    return bytes
}
