/// The mount point that holds a path, from the bytes of `/proc/self/mountinfo` (proc(5)): what `df` prints under
/// "Mounted on".
enum MountTable {
    /// The mount point of the file system `device` (`major:minor`, as `stat(2)` gives it) that holds `resolvedPath`
    /// (absolute, with no link left in it): among the entries of that device, the deepest whose mount point is
    /// `resolvedPath` or a folder above it; nil when no entry of the device holds it.
    ///
    /// The file is read as bytes, not text: the kernel escapes only space, tab, newline and backslash in a mount point
    /// (`\040` is a space) and writes every other byte as it is, so a mount point that is not UTF-8 stays exact.
    /// A malformed line is skipped.
    static func mountPoint(holding resolvedPath: BytePath, device: String, mountinfo: [UInt8]) -> BytePath? {
        let device = Array(device.utf8)
        var best: BytePath?
        for line in mountinfo.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count > 4, fields[2].elementsEqual(device) else { continue }
            let mountPoint = unescaped(fields[4])
            guard resolvedPath.isEqualOrBelow(mountPoint) else { continue }
            if mountPoint.bytes.count >= best?.bytes.count ?? 0 { best = mountPoint }
        }
        return best
    }

    /// A mountinfo field with the kernel's octal escapes (space, tab, newline, backslash) decoded.
    static func unescaped(_ field: ArraySlice<UInt8>) -> BytePath {
        var bytes: [UInt8] = []
        let field = Array(field)
        var index = 0
        while index < field.count {
            if field[index] == UInt8(ascii: "\\"), index + 3 < field.count,
                let value = octal(field[(index + 1)...(index + 3)])
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(field[index])
                index += 1
            }
        }
        return BytePath(bytes: bytes)
    }

    /// Three octal digits as a byte, or nil.
    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 0xFF ? UInt8(value) : nil
    }
}
