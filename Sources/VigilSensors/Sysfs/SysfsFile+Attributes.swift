extension SysfsFile {
    /// Reads every attribute named in `names` that exists in `directory`, keyed by name.
    ///
    /// A missing attribute is left out (drivers expose different subsets); any other failure is thrown. If the
    /// directory itself has gone, throws ``SensorError/vanished(path:)``.
    static func readAttributes(in directory: String, names: [String]) throws(SensorError) -> [String: String] {
        let read = try readAttributeTexts(in: directory, names: names)
        if let failure = read.failures.sorted(by: { $0.key < $1.key }).first { throw failure.value }
        return read.texts
    }

    /// Reads every attribute named in `names` that exists in `directory`, keeping each failure beside the texts.
    ///
    /// One bad attribute hides only itself: a missing attribute is left out, and one that cannot be read (refused,
    /// a FIFO, too large, an I/O error) is reported in ``AttributeTexts/failures`` while the others are read.
    ///
    /// - Throws: ``SensorError/vanished(path:)`` only, when the directory itself has gone.
    static func readAttributeTexts(in directory: String, names: [String]) throws(SensorError) -> AttributeTexts {
        try readAttributeTexts(in: BytePath(directory), names: names)
    }

    /// Reads the attributes of a directory named by bytes (a device whose name is not UTF-8); see
    /// the `String` `readAttributeTexts(in:names:)`. Failures name the directory as ``BytePath/displayText``.
    ///
    /// `binary` names attributes read as bytes (such as a DRM connector's `edid`) into ``AttributeTexts/bytes``, each
    /// with the most bytes it may hold; a longer one is a ``SensorError/fileTooLarge(path:limit:)`` failure.
    static func readAttributeTexts(
        in directory: BytePath, names: [String], binary: [String: Int] = [:]
    ) throws(SensorError) -> AttributeTexts {
        var result = AttributeTexts()
        for name in names + binary.keys.sorted() {
            do {
                let path = directory.appending(BytePath(name))
                if let limit = binary[name] {
                    result.bytes[name] = try readBytes(path, limit: limit)
                } else {
                    result.texts[name] = try readText(path)
                }
            } catch .notFound {
                if !exists(directory) { throw SensorError.vanished(path: directory.displayText) }
            } catch {
                result.failures[name] = error
            }
        }
        return result
    }
}

/// The attribute texts of one device directory, and the attributes that could not be read.
struct AttributeTexts: Sendable, Equatable {
    /// Attribute text (trailing newline removed) by attribute name.
    var texts: [String: String] = [:]
    /// The content of each binary attribute read, by attribute name.
    var bytes: [String: [UInt8]] = [:]
    /// Why an attribute that exists could not be read, by attribute name.
    var failures: [String: SensorError] = [:]
}
