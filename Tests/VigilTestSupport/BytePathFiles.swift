import Glibc
import VigilSensors

/// Byte-exact file operations for names a `String` path cannot spell (not UTF-8), or must not normalize.
package enum BytePathFiles {
    /// Latin-1 "café": `E9` alone is not UTF-8.
    package static let latin1Cafe: [UInt8] = Array("caf".utf8) + [0xE9]
    /// "é" precomposed (NFC, U+00E9).
    package static let nfcE: [UInt8] = [0xC3, 0xA9]
    /// "é" decomposed (NFD, e + U+0301): canonically equivalent to ``nfcE`` as a Swift `String`, another file on disk.
    package static let nfdE: [UInt8] = [0x65, 0xCC, 0x81]

    /// `directory/name`, byte-exact.
    package static func path(_ directory: String, _ name: [UInt8]) -> BytePath {
        BytePath(bytes: Array(directory.utf8) + [UInt8(ascii: "/")] + name)
    }

    /// Creates or truncates the file at `path` and writes `text` to it.
    @discardableResult
    package static func write(_ path: BytePath, _ text: String = "x") -> Bool {
        let fd = withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Creates or truncates the file at `path` and writes `bytes` to it (a binary attribute).
    @discardableResult
    package static func write(_ path: BytePath, bytes: [UInt8]) -> Bool {
        let fd = withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Removes the file at `path` (the temporary directory's cleanup lists names as text and would miss it).
    package static func remove(_ path: BytePath) {
        _ = withCString(path) { unlink($0) }
    }

    /// Creates the directory at `path`; returns whether it was created.
    @discardableResult
    package static func makeDirectory(_ path: BytePath) -> Bool {
        withCString(path) { mkdir($0, 0o755) } == 0
    }

    /// Removes the empty directory at `path`.
    package static func removeDirectory(_ path: BytePath) {
        _ = withCString(path) { rmdir($0) }
    }

    /// Mounts an empty tmpfs on the directory at `path` (root only); returns whether it was mounted.
    @discardableResult
    package static func mountTemporaryFileSystem(_ path: BytePath) -> Bool {
        withCString(path) { mount("none", $0, "tmpfs", 0, nil) } == 0
    }

    /// Detaches what is mounted on `path` (`umount2(2)` with `MNT_DETACH`, so a busy mount still goes).
    package static func unmount(_ path: BytePath) {
        _ = withCString(path) { umount2($0, Int32(MNT_DETACH)) }
    }

    /// Makes `link` a symbolic link to `target`; returns whether it was made.
    @discardableResult
    package static func makeSymbolicLink(_ link: BytePath, to target: BytePath) -> Bool {
        withCString(target) { target in withCString(link) { symlink(target, $0) } } == 0
    }

    /// The path's bytes as a C string, converted here rather than by the code under test.
    private static func withCString<Result>(_ path: BytePath, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (path.bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
