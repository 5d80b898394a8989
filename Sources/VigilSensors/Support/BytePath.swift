/// A file-system path as the kernel sees it, or any other name the kernel hands over: a sequence of bytes, not text.
///
/// Linux file names are any bytes but `/` and NUL; they need not be UTF-8, and two names that Unicode calls
/// canonically equivalent (NFC `é`, bytes `C3 A9`, and NFD `é`, bytes `65 CC 81`) are different files. A `BytePath`
/// keeps the exact bytes, and compares and hashes them byte for byte, so it names exactly one file. Names that are
/// not paths but come from the kernel as bytes (a mount point, a uevent's `DEVPATH`, an interface name in
/// `INTERFACE`, a USB descriptor's model string) are held the same way.
///
/// For display, ``description`` escapes the bytes the way `ls -b` does; ``string`` is the path as text when it is
/// valid UTF-8. The path never contains NUL: a `String` with one is cut there, as the kernel would.
///
/// As JSON (`Encodable`), a path that is valid UTF-8 (the usual case) is a string, its exact text: `"/tmp/a"`. A path
/// that is not is the array of its byte values, as journald writes such a field: `[47,116,109,112,47,99,97,102,233]`.
/// So a JSON string is always the very name, never a look-alike with U+FFFD in place of the bytes it could not hold
/// (which would name another file, or none); a reader that expects a string sees at once that this name is not one.
public struct BytePath: Hashable, Sendable, Encodable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path spelled by `string`'s UTF-8 bytes (up to its first NUL, if any).
    public init(_ string: String) {
        self.bytes = Array(string.utf8.prefix { $0 != 0 })
    }

    /// The path made of `bytes` (up to the first NUL, if any).
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// The path spelled by a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path as text if its bytes are valid UTF-8, `nil` otherwise.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The path as text, with each byte sequence that is not valid UTF-8 replaced by U+FFFD: for display only, since
    /// different paths can give the same text.
    public var lossyString: String { String(decoding: bytes, as: UTF8.self) }

    /// The path as text: ``string`` when it is valid UTF-8, else ``description`` (escaped like `ls -b`), so that a
    /// device or file whose name is not UTF-8 is still shown, and told apart from its neighbours.
    var displayText: String { string ?? description }

    /// Whether the bytes are valid UTF-8.
    public var isValidUTF8: Bool { string != nil }

    /// Whether the path has no bytes.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The path on one line, escaped like `ls -b`: printable text as it is; a backslash and a space preceded by a
    /// backslash; tab, newline and the other C escapes as `\t`, `\n`, …; any other control character, and each byte
    /// that is not valid UTF-8, as a three-digit octal escape (`caf\351` for Latin-1 `café`).
    public var description: String { Self.escape(bytes) }

    /// Encodes the path as described in the type's discussion: its text when it is valid UTF-8, else its bytes.
    public func encode(to encoder: any Encoder) throws {
        try Self.encode(textOrBytes: bytes, to: encoder)
    }

    /// This path followed by a slash and `name` (no slash is doubled after a path that ends in one).
    public func appending(_ name: BytePath) -> BytePath {
        if bytes.last == Self.slash { return BytePath(verbatim: bytes + name.bytes) }
        return BytePath(verbatim: bytes + [Self.slash] + name.bytes)
    }

    /// Whether this path is `ancestor` or lies below it (compared byte for byte, component by component).
    public func isEqualOrBelow(_ ancestor: BytePath) -> Bool {
        guard bytes.starts(with: ancestor.bytes) else { return false }
        return bytes.count == ancestor.bytes.count || bytes[ancestor.bytes.count] == Self.slash
            || ancestor.bytes.last == Self.slash
    }

    /// The path with `prefix` (which it is equal to or below, see ``isEqualOrBelow(_:)``) replaced by `replacement`.
    func replacingPrefix(_ prefix: BytePath, with replacement: BytePath) -> BytePath {
        BytePath(verbatim: replacement.bytes + bytes[prefix.bytes.count...])
    }

    /// The path without trailing slashes (`/` stays `/`).
    var withoutTrailingSlashes: BytePath {
        var trimmed = bytes[...]
        while trimmed.count > 1 && trimmed.last == Self.slash { trimmed.removeLast() }
        return BytePath(verbatim: Array(trimmed))
    }

    /// Splits the path at its last slash: the parent directory (`.` if there is none, `/` for the root's entries)
    /// and the last component.
    var parentAndName: (parent: BytePath, name: BytePath) {
        guard let slash = bytes.lastIndex(of: Self.slash) else { return (".", self) }
        let parent = slash == 0 ? [Self.slash] : Array(bytes[..<slash])
        return (BytePath(verbatim: parent), BytePath(verbatim: Array(bytes[(slash + 1)...])))
    }

    /// Calls `body` with the path as a NUL-terminated C string, for a system call.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    private init(verbatim bytes: [UInt8]) { self.bytes = bytes }

    private static let slash = UInt8(ascii: "/")
}
