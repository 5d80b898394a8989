import Glibc

/// Reads the small text files of sysfs and procfs with plain `open(2)`, `read(2)` and `opendir(3)`.
///
/// sysfs attributes are generated on each read from offset 0, so a file is read whole in one pass (up to
/// ``maximumSize`` bytes) and its trailing newline trimmed. Errors are mapped with ``SensorError/from(_:call:path:)``,
/// so a missing attribute is ``SensorError/notFound(path:)``, a refused one ``SensorError/permissionDenied(path:)``.
enum PseudoFile {
    /// The largest file read; sysfs attributes are at most one page, procfs files here are a few kilobytes.
    static let maximumSize = 1 << 20

    /// Reads the whole file at `path` as UTF-8 text without its trailing newline.
    static func readText(_ path: String) throws(SensorError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SensorError.from(Errno.current, call: "open", path: path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < maximumSize {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                if error == .isDirectory {
                    throw SensorError.malformedValue(path: path, text: "", expected: "a file, found a directory")
                }
                throw SensorError.from(error, call: "read", path: path)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// Lists the entries of the directory at `path`, sorted, without `.` and `..`.
    static func listDirectory(_ path: String) throws(SensorError) -> [String] {
        guard let directory = opendir(path) else {
            throw SensorError.from(Errno.current, call: "opendir", path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `path` exists (following symbolic links).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Reads every regular attribute named in `names` that exists in `directory`, keyed by name.
    ///
    /// A missing attribute is left out (drivers expose different subsets); any other failure is thrown. If the
    /// directory itself has gone, throws ``SensorError/vanished(path:)``.
    static func readAttributes(in directory: String, names: [String]) throws(SensorError) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            do {
                values[name] = try readText(directory + "/" + name)
            } catch .notFound {
                if !exists(directory) { throw SensorError.vanished(path: directory) }
            }
        }
        return values
    }
}
