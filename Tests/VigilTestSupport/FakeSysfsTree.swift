import Glibc

/// A temporary directory laid out like `/sys` or `/proc`, removed on deinit.
package final class FakeSysfsTree {
    private let directory: TemporaryDirectory?

    /// The root to pass as a source's `root` parameter.
    package let root: String

    /// A tree in a fresh temporary directory, removed on deinit.
    package init() {
        let directory = TemporaryDirectory("vigil-sysfs")
        self.directory = directory
        root = directory.path
    }

    /// A tree at `root` (created if missing), left in place on deinit: its owner removes it.
    package init(root: String) {
        directory = nil
        self.root = root
        mkdir(root, 0o755)
    }

    deinit { directory?.remove() }

    /// Writes `text` to `relativePath` under the root, creating parent directories.
    package func write(_ relativePath: String, _ text: String) {
        makeDirectory(Self.parent(relativePath))
        precondition(writeFile(root + "/" + relativePath, text), "cannot write \(relativePath)")
    }

    /// Writes `bytes` to `relativePath` under the root (a binary attribute such as `edid`), creating parent
    /// directories.
    package func write(_ relativePath: String, bytes: [UInt8]) {
        makeDirectory(Self.parent(relativePath))
        let path = root + "/" + relativePath
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(relativePath)")
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            precondition(count > 0 || errno == EINTR, "cannot write \(relativePath)")
            written += max(count, 0)
        }
    }

    /// Writes every attribute of `attributes` into the directory `relativePath`, each with a trailing newline.
    package func device(_ relativePath: String, _ attributes: [String: String]) {
        makeDirectory(relativePath)
        for (name, value) in attributes { write(relativePath + "/" + name, value + "\n") }
    }

    /// Creates `relativePath` and its parents.
    package func makeDirectory(_ relativePath: String) {
        var path = root
        for component in relativePath.split(separator: "/") {
            path += "/" + component
            mkdir(path, 0o755)
        }
    }

    /// Creates a symbolic link at `relativePath` pointing to `target` (kept as given: relative or absolute).
    package func link(_ relativePath: String, to target: String) {
        makeDirectory(Self.parent(relativePath))
        symlink(target, root + "/" + relativePath)
    }

    /// Removes `relativePath` and everything below it (a link is removed, not followed).
    package func remove(_ relativePath: String) {
        let path = root + "/" + relativePath
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            TemporaryDirectory.removeTree(path)
        } else {
            unlink(path)
        }
    }

    /// Whether opening `path` for reading fails with `EACCES` even for this process.
    package static func isUnreadable(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            close(fd)
            return false
        }
        return errno == EACCES
    }

    private static func parent(_ relativePath: String) -> String {
        relativePath.split(separator: "/").dropLast().joined(separator: "/")
    }
}
