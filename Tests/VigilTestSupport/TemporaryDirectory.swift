import Glibc

/// A fresh directory under `/tmp`, removed with everything in it by ``remove()`` or when released.
package final class TemporaryDirectory: Sendable {
    /// The directory's path.
    package let path: String

    /// Creates `/tmp/LABEL-XXXXXX` (`mkdtemp(3)`).
    package init(_ label: String = "vigil") {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { remove() }

    /// The path of `name` in the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `relative` in the directory, creating its parent directories.
    package func write(_ relative: String, _ text: String) {
        var parent = path
        for component in relative.split(separator: "/").dropLast() {
            parent += "/" + component
            mkdir(parent, 0o755)
        }
        writeFile(file(relative), text)
    }

    /// Removes the directory and everything in it; removing it again does nothing.
    package func remove() { Self.removeTree(path) }

    /// Removes `path` and everything below it, names of any bytes included; a link is removed, not followed.
    package static func removeTree(_ path: String) {
        removeTree(Array(path.utf8))
    }

    private static func removeTree(_ path: [UInt8]) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        guard lstat(cPath, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            unlink(cPath)
            return
        }
        if let directory = opendir(cPath) {
            var children: [[UInt8]] = []
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            while let entry = readdir(directory) {
                let name = UnsafeRawPointer(entry) + nameOffset
                let bytes = Array(
                    UnsafeRawBufferPointer(start: name, count: strlen(name.assumingMemoryBound(to: CChar.self))))
                if bytes != [0x2E] && bytes != [0x2E, 0x2E] { children.append(path + [0x2F] + bytes) }
            }
            closedir(directory)
            for child in children { removeTree(child) }
        }
        rmdir(cPath)
    }
}

/// Creates or truncates `path` and writes `text` to it; returns whether all of it was written.
@discardableResult
package func writeFile(_ path: String, _ text: String = "x") -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) } == text.utf8.count
}

/// Replaces `path` with `text` atomically (a temporary file, then `rename`), so a poller never reads it half-written.
@discardableResult
package func replaceFile(_ path: String, _ text: String) -> Bool {
    let temporary = path + ".writing"
    return writeFile(temporary, text) && rename(temporary, path) == 0
}
