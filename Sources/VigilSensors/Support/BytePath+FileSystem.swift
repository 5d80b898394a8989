import Glibc

extension BytePath {
    /// The entries of the directory at this path, byte-exact, without `.` and `..`.
    ///
    /// - Throws: The `opendir(3)` errno.
    func listDirectory() throws(Errno) -> [BytePath] {
        let (opened, failure): (OpaquePointer?, Errno) = withCString { path in
            let directory = opendir(path)
            return (directory, directory == nil ? Errno.current : Errno(rawValue: 0))
        }
        guard let directory = opened else { throw failure }
        defer { closedir(directory) }
        var names: [BytePath] = []
        // d_name is read in place: a record is only as long as its name, so copying the 256-byte field would read
        // past the end of the kernel's buffer.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = UnsafeRawPointer(entry) + nameOffset
            let length = strlen(name.assumingMemoryBound(to: CChar.self))
            let bytes = UnsafeRawBufferPointer(start: name, count: length)
            if bytes.elementsEqual([UInt8(ascii: ".")]) || bytes.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                continue
            }
            names.append(BytePath(bytes: bytes))
        }
        return names
    }

    /// The `stat(2)` of this path (following symbolic links), or the errno.
    func status() throws(Errno) -> stat {
        var info = stat()
        let failure: Errno? = withCString { stat($0, &info) == 0 ? nil : Errno.current }
        if let failure { throw failure }
        return info
    }

    /// Whether this path is a directory itself, not a symbolic link to one (`lstat(2)`).
    var isRealDirectory: Bool {
        var info = stat()
        return withCString { lstat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Checks that this process may read the file at this path (`access(2)` with `R_OK`).
    ///
    /// - Throws: The `access(2)` errno.
    func checkReadable() throws(Errno) {
        let failure: Errno? = withCString { access($0, R_OK) == 0 ? nil : Errno.current }
        if let failure { throw failure }
    }
}
