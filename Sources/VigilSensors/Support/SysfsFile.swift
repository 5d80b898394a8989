import CLinuxSupport
import Glibc

/// Reads and writes the small text files of sysfs and procfs with plain system calls.
///
/// Every error is a ``SensorError`` that names the path (see ``SensorError/from(_:call:path:)``).
enum SysfsFile {
    /// Reads a whole file as UTF-8 text, with trailing newlines removed.
    ///
    /// - Throws: ``SensorError/notFound(path:)``, ``SensorError/permissionDenied(path:)`` or another mapped error.
    static func readText(_ path: String) throws(SensorError) -> String {
        let bytes = try readBytes(path)
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last == "\n" || last == "\r" { text.removeLast() }
        return text
    }

    /// Reads a whole file as bytes.
    static func readBytes(_ path: String) throws(SensorError) -> [UInt8] {
        let fd = try open(path, flags: O_RDONLY)
        defer { fd.close() }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { chunk.deallocate() }
        var result: [UInt8] = []
        while true {
            let count: Int
            do {
                count = try retryingOnInterrupt { read(fd.rawValue, chunk.baseAddress, chunk.count) }
            } catch {
                throw SensorError.from(error, call: "read", path: path)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads a file holding one integer, such as `4200000` or `-12`.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the text is not an integer.
    static func readInteger(_ path: String) throws(SensorError) -> Int {
        let text = try readText(path)
        guard let value = Int(text.trimmingWhitespace()) else {
            throw .malformedValue(path: path, text: text, expected: "an integer")
        }
        return value
    }

    /// Reads a file holding one decimal number, such as `0.000598`.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the text is not a finite number.
    static func readDouble(_ path: String) throws(SensorError) -> Double {
        let text = try readText(path)
        guard let value = Double(text.trimmingWhitespace()), value.isFinite else {
            throw .malformedValue(path: path, text: text, expected: "a decimal number")
        }
        return value
    }

    /// Writes `text` to an existing file (an attribute), replacing its content.
    static func write(_ text: String, to path: String) throws(SensorError) {
        let fd = try open(path, flags: O_WRONLY | O_TRUNC)
        defer { fd.close() }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                let base = buffer.baseAddress! + offset
                let remaining = buffer.count - offset
                return Result { () throws(Errno) in
                    try retryingOnInterrupt { Glibc.write(fd.rawValue, base, remaining) }
                }
            }
            switch result {
            case .success(let written): offset += written
            case .failure(let error): throw SensorError.from(error, call: "write", path: path)
            }
        }
    }

    /// Lists a directory's entry names, sorted, without `.` and `..`.
    static func listDirectory(_ path: String) throws(SensorError) -> [String] {
        guard let directory = opendir(path) else {
            throw SensorError.from(.current, call: "opendir", path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether something exists at `path` (following symbolic links).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func open(_ path: String, flags: Int32) throws(SensorError) -> FileDescriptor {
        do {
            let raw = try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC) }
            return FileDescriptor(raw)
        } catch {
            throw SensorError.from(error, call: "open", path: path)
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
