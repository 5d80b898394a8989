import Glibc

/// A temporary directory for a fake sysfs tree, removed on deinit.
final class NetlinkTemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/vigil-netlink-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw NetlinkTestFailure("mkdtemp failed: errno \(errno)")
        }
        path = String(cString: created)
    }

    func makeDirectory(_ relative: String) throws {
        var current = path
        for component in relative.split(separator: "/") {
            current += "/" + component
            guard mkdir(current, 0o755) == 0 || errno == EEXIST else {
                throw NetlinkTestFailure("mkdir \(current) failed: errno \(errno)")
            }
        }
    }

    deinit {
        _ = removeTree(path)
    }

    private func removeTree(_ directory: String) -> Int32 {
        guard let handle = opendir(directory) else { return unlink(directory) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = directory + "/" + name
            if entry.pointee.d_type == UInt8(DT_DIR) { _ = removeTree(child) } else { unlink(child) }
        }
        closedir(handle)
        return rmdir(directory)
    }
}

/// A failure in a test's own setup, with what went wrong.
struct NetlinkTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
