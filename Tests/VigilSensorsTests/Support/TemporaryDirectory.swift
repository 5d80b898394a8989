import Glibc

@testable import VigilSensors

/// A fresh directory under `/tmp`, removed with everything in it on ``remove()``.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = "vigil") {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { Self.removeTree(path) }

    static func removeTree(_ path: String) {
        for name in (try? SysfsFile.listDirectory(path)) ?? [] {
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                removeTree(child)
            } else {
                unlink(child)
            }
        }
        rmdir(path)
    }
}

/// Creates or truncates `path` and writes `text` to it.
@discardableResult
func writeFile(_ path: String, _ text: String = "x") -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) } == text.utf8.count
}

/// Replaces `path` with `text` atomically (a temporary file, then `rename`), so a poller never reads it half-written.
@discardableResult
func replaceFile(_ path: String, _ text: String) -> Bool {
    let temporary = path + ".writing"
    return writeFile(temporary, text) && rename(temporary, path) == 0
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
