import Glibc

/// A temporary directory laid out like `/sys` or `/proc`, removed on deinit.
final class FakeSysfsTree {
    /// The root to pass as a source's `root` parameter.
    let root: String

    init() {
        var template = Array("/tmp/vigil-sysfs-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        root = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { Self.remove(root) }

    /// Writes `text` to `relativePath` under the root, creating parent directories.
    func write(_ relativePath: String, _ text: String) {
        let path = root + "/" + relativePath
        makeDirectory(String(relativePath.split(separator: "/").dropLast().joined(separator: "/")))
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short write to \(path)")
        close(fd)
    }

    /// Writes every attribute of `attributes` into the directory `relativePath`, each with a trailing newline.
    func device(_ relativePath: String, _ attributes: [String: String]) {
        makeDirectory(relativePath)
        for (name, value) in attributes { write(relativePath + "/" + name, value + "\n") }
    }

    /// Creates `relativePath` and its parents.
    func makeDirectory(_ relativePath: String) {
        var path = root
        for component in relativePath.split(separator: "/") {
            path += "/" + component
            mkdir(path, 0o755)
        }
    }

    /// Creates a symbolic link at `relativePath` pointing to `target` (kept as given: relative or absolute).
    func link(_ relativePath: String, to target: String) {
        makeDirectory(String(relativePath.split(separator: "/").dropLast().joined(separator: "/")))
        symlink(target, root + "/" + relativePath)
    }

    /// Removes `relativePath` and everything below it.
    func remove(_ relativePath: String) { Self.remove(root + "/" + relativePath) }

    private static func remove(_ path: String) {
        if let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

extension FakeSysfsTree {
    /// Whether opening `path` for reading fails with `EACCES` even for this process.
    static func isUnreadable(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            close(fd)
            return false
        }
        return errno == EACCES
    }
}
