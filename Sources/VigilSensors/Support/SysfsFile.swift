import CLinuxSupport
import Glibc

/// Reads and writes the small text files of sysfs and procfs with plain system calls.
///
/// Every error is a ``SensorError`` that names the path (see ``SensorError/from(_:call:path:)``).
package enum SysfsFile {
    /// The most bytes a sysfs attribute is read up to: 64 KiB.
    ///
    /// The kernel fills an attribute from one page (`sysfs_emit`), 4 KiB on most machines but 64 KiB on arm64 and
    /// ppc64 kernels built with 64 KiB pages, so 64 KiB holds every attribute without letting a file that never ends
    /// (a link to `/dev/zero`, a runaway regular file) grow memory without bound.
    package static let attributeLimit = 64 * 1024

    /// The most bytes a procfs file such as `/proc/stat` or `/proc/meminfo` is read up to: 4 MiB.
    ///
    /// `/proc/stat` grows with the cores (a `cpuN` line of up to ~100 bytes each) and the interrupts (one count per
    /// IRQ on the `intr` line); 4 MiB holds it for 8192 cores and tens of thousands of IRQs.
    static let procfsLimit = 4 * 1024 * 1024

    /// Reads a whole file as UTF-8 text, with trailing newlines removed.
    ///
    /// - Parameters:
    ///   - path: The attribute or procfs file.
    ///   - limit: The most bytes the file may hold (``attributeLimit`` unless reading a large procfs file).
    /// - Throws: ``SensorError/notFound(path:)``, ``SensorError/permissionDenied(path:)``,
    ///   ``SensorError/wrongFileType(path:found:expected:)`` for anything but a regular file,
    ///   ``SensorError/fileTooLarge(path:limit:)``, or another mapped error.
    package static func readText(_ path: String, limit: Int = attributeLimit) throws(SensorError) -> String {
        try readText(BytePath(path), limit: limit)
    }

    /// Reads a whole file named by bytes as UTF-8 text; see the `String` `readText(_:limit:)`.
    static func readText(_ path: BytePath, limit: Int = attributeLimit) throws(SensorError) -> String {
        let bytes = try readBytes(path, limit: limit)
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last == "\n" || last == "\r" { text.removeLast() }
        return text
    }

    /// Reads a whole procfs file such as `/proc/stat` as text, up to ``procfsLimit``.
    ///
    /// The one read of a procfs file, for its source and its availability check alike, so both agree on the limit.
    ///
    /// - Throws: See ``readText(_:limit:)``.
    static func readProcfsText(_ path: String) throws(SensorError) -> String {
        try readText(path, limit: procfsLimit)
    }

    /// Reads a whole regular file as bytes, never blocking and never more than `limit` bytes.
    ///
    /// The file is opened non-blocking and checked to be a regular file (what sysfs and procfs attributes are)
    /// before anything is read, so a FIFO, a device node or a directory where an attribute should be is refused
    /// instead of blocking the caller or reading forever.
    ///
    /// - Throws: See ``readText(_:limit:)``.
    static func readBytes(_ path: String, limit: Int = attributeLimit) throws(SensorError) -> [UInt8] {
        try readBytes(BytePath(path), limit: limit)
    }

    /// Reads a whole regular file named by bytes (a device directory whose name is not UTF-8); errors name it as
    /// ``BytePath/displayText``. See the `String` `readBytes(_:limit:)`.
    static func readBytes(_ bytePath: BytePath, limit: Int = attributeLimit) throws(SensorError) -> [UInt8] {
        try readBytes(bytePath, limit: limit, truncating: false)
    }

    /// Reads the first `count` bytes of a regular file as UTF-8 text, for a file whose head is all that is needed
    /// and whose whole may be large (`/proc/cpuinfo` grows by a block per core): a longer file is cut, not refused.
    ///
    /// - Throws: See ``readText(_:limit:)``, without ``SensorError/fileTooLarge(path:limit:)``.
    static func readLeadingText(_ path: String, count: Int) throws(SensorError) -> String {
        String(decoding: try readBytes(BytePath(path), limit: count, truncating: true), as: UTF8.self)
    }

    /// The bytes of a regular file up to `limit`; past it, the first `limit` bytes when `truncating`, otherwise
    /// ``SensorError/fileTooLarge(path:limit:)``.
    private static func readBytes(_ bytePath: BytePath, limit: Int, truncating: Bool) throws(SensorError) -> [UInt8] {
        let path = bytePath.displayText
        let fd = try openRegularFile(bytePath, flags: O_RDONLY)
        defer { fd.close() }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { chunk.deallocate() }
        var result: [UInt8] = []
        while true {
            // Ask for one byte past the limit at most, to tell a file of exactly `limit` bytes from a longer one.
            let wanted = min(chunk.count, limit + 1 - result.count)
            let count: Int
            do {
                count = try retryingOnInterrupt { read(fd.rawValue, chunk.baseAddress, wanted) }
            } catch {
                throw SensorError.from(error, call: "read", path: path)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit {
                if truncating { return Array(result[..<limit]) }
                throw .fileTooLarge(path: path, limit: limit)
            }
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
    ///
    /// Like reading, writing refuses anything but a regular file and never blocks.
    static func write(_ text: String, to path: String) throws(SensorError) {
        let fd = try openRegularFile(path, flags: O_WRONLY | O_TRUNC)
        defer { fd.close() }
        do {
            try fd.write(fully: Array(text.utf8)[...])
        } catch {
            throw SensorError.from(error, call: "write", path: path)
        }
    }

    /// Lists a directory's entry names, sorted, without `.` and `..`.
    static func listDirectory(_ path: String) throws(SensorError) -> [String] {
        guard let directory = opendir(path) else {
            throw SensorError.from(.current, call: "opendir", path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        // d_name is read in place: a record is only as long as its name, so copying the 256-byte field would read
        // past the end of the kernel's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether something exists at `path` (following symbolic links).
    static func exists(_ path: String) -> Bool {
        exists(BytePath(path))
    }

    /// Whether something exists at the path named by bytes (following symbolic links).
    static func exists(_ path: BytePath) -> Bool {
        (try? path.status()) != nil
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Opens `path` non-blocking and close-on-exec, refusing anything but a regular file.
    ///
    /// The type is checked with `stat(2)` before opening, so a device node is never opened (opening some has side
    /// effects), and again with `fstat(2)` on the open descriptor, in case the path changed in between.
    ///
    /// - Throws: ``SensorError/wrongFileType(path:found:expected:)`` or a mapped error of `stat`, `open` or
    ///   `fstat`.
    static func openRegularFile(_ path: String, flags: Int32) throws(SensorError) -> FileDescriptor {
        try openRegularFile(BytePath(path), flags: flags)
    }

    /// Opens the regular file named by `bytePath`; see the `String` `openRegularFile(_:flags:)`.
    static func openRegularFile(_ bytePath: BytePath, flags: Int32) throws(SensorError) -> FileDescriptor {
        let path = bytePath.displayText
        let expected = "an attribute file"
        let found: FileKind
        do {
            found = FileKind(mode: try bytePath.status().st_mode)
        } catch {
            throw SensorError.from(error, call: "stat", path: path)
        }
        guard found == .regular else {
            throw SensorError.wrongFileType(path: path, found: "\(found)", expected: expected)
        }
        let opened = bytePath.withCString { path in
            Result { () throws(Errno) in try retryingOnInterrupt { Glibc.open(path, flags | O_NONBLOCK | O_CLOEXEC) } }
        }
        let fd: FileDescriptor
        switch opened {
        case .success(let raw): fd = FileDescriptor(raw)
        case .failure(let error): throw SensorError.from(error, call: "open", path: path)
        }
        let kind: FileKind
        do {
            kind = try FileKind.of(descriptor: fd.rawValue)
        } catch {
            fd.close()
            throw SensorError.from(error, call: "fstat", path: path)
        }
        guard kind == .regular else {
            fd.close()
            throw SensorError.wrongFileType(path: path, found: "\(kind)", expected: expected)
        }
        return fd
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
