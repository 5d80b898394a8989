import Glibc

/// Walks the devices of one `/sys/class/<name>` directory and builds a reading per device.
enum SysfsClass {
    /// The devices read from one class directory, and what could not be read.
    struct Devices<Device> {
        /// The devices, in entry-name order.
        var devices: [Device] = []
        /// One line per entry that is not a readable device (a symbolic-link loop, a file, a device whose identity
        /// attribute is bad), naming its path and saying what is wrong.
        var problems: [String] = []
    }

    /// Reads every device of class `className` under `root` whose name passes `include`.
    ///
    /// One bad entry hides only itself: an entry that is not a directory (a link loop, a stray file) and a device
    /// whose `attributes` or `parse` throws are reported in ``Devices/problems``, and the others are read. A device
    /// whose directory disappears while it is read (a dangling link, an unplug) is left out silently. An absent class
    /// directory means no devices; an absent root throws.
    ///
    /// Entries are listed and their attributes read by their bytes, so a device whose name is not UTF-8 is read like
    /// any other: its name, and the `origin` passed to the closures, are ``BytePath/displayText`` (escaped like
    /// `ls -b`), for display and messages.
    ///
    /// - Parameters:
    ///   - attributes: The attribute names to read for a device directory (it may list the directory).
    ///   - binaryAttributes: Attributes read as bytes, each with the most bytes it may hold.
    ///   - parse: Builds a device from its attribute texts; it decides which bad attribute hides what.
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or when `root` itself is
    ///   gone.
    static func read<Device>(
        root: String, className: String, include: (String) -> Bool = { _ in true },
        attributes: (String) throws(SensorError) -> [String], binaryAttributes: [String: Int] = [:],
        parse: (_ name: String, _ read: AttributeTexts, _ origin: String) throws(SensorError) -> Device
    ) throws(SensorError) -> Devices<Device> {
        try read(
            root: root, className: className, include: include, attributes: attributes,
            binaryAttributes: binaryAttributes,
            parseAt: { (name, read, directory) throws(SensorError) in
                try parse(name, read, directory.displayText)
            })
    }

    /// Reads every device of class `className` like `read(root:className:include:attributes:binaryAttributes:parse:)`,
    /// giving `parseAt` the device directory as bytes, for a parser that follows the device's links (`device`,
    /// `driver`) whatever its name.
    static func read<Device>(
        root: String, className: String, include: (String) -> Bool = { _ in true },
        attributes: (String) throws(SensorError) -> [String], binaryAttributes: [String: Int] = [:],
        parseAt: (_ name: String, _ read: AttributeTexts, _ directory: BytePath) throws(SensorError) -> Device
    ) throws(SensorError) -> Devices<Device> {
        let classPath = BytePath(path(root: root, className: className))
        let entries: [BytePath]
        do {
            entries = try classPath.listDirectory()
        } catch .noSuchFileOrDirectory {
            // No class directory is no devices of the class; no root at all (a tree removed or not mounted) is no
            // reading: the source says so instead of reporting an empty machine.
            guard SysfsFile.isDirectory(root) else { throw SensorError.notFound(path: root) }
            return Devices()
        } catch {
            throw SensorError.from(error, call: "opendir", path: classPath.displayText)
        }
        var result = Devices<Device>()
        for entry in entries.sorted(by: { $0.displayText < $1.displayText }) where include(entry.displayText) {
            let directory = classPath.appending(entry)
            do {
                guard try isDeviceDirectory(directory) else { continue }
                let origin = directory.displayText
                let read = try SysfsFile.readAttributeTexts(
                    in: directory, names: try attributes(origin), binary: binaryAttributes)
                result.devices.append(try parseAt(entry.displayText, read, directory))
            } catch .vanished, .notFound(path: directory.displayText) {
                continue
            } catch {
                result.problems.append(error.description)
            }
        }
        return result
    }

    /// Whether the class entry at `directory` is a device directory; false when it has gone (a dangling link).
    ///
    /// - Throws: ``SensorError/wrongFileType(path:found:expected:)`` for a file, or
    ///   ``SensorError/unavailable(source:reason:)`` when the entry cannot be followed (a symbolic-link loop).
    static func isDeviceDirectory(_ directory: BytePath) throws(SensorError) -> Bool {
        let kind: FileKind
        do {
            kind = FileKind(mode: try directory.status().st_mode)
        } catch {
            if error == .noSuchFileOrDirectory { return false }
            let why = error.rawValue == ELOOP ? "it is a symbolic-link loop" : "it cannot be followed: \(error)"
            throw SensorError.unavailable(source: directory.displayText, reason: "\(why); skipped, not a device")
        }
        guard kind == .directory else {
            throw SensorError.wrongFileType(
                path: directory.displayText, found: "\(kind)", expected: "a device directory")
        }
        return true
    }

    /// The class directory path, for availability checks and messages.
    static func path(root: String, className: String) -> String {
        root + "/class/" + className
    }
}

extension SysfsClass {
    /// Whether class `className` under `root` has a device passing `include`; `noun` names the devices in the reason.
    static func availability(
        root: String, className: String, noun: String, include: (String) -> Bool = { _ in true }
    ) -> Availability {
        let classPath = path(root: root, className: className)
        var hasDevice = false
        let readable = Availability.checking(
            classPath, missing: (.missingDevice, "this machine has no \(noun) (no \(classPath))"),
            read: { (path) throws(SensorError) in hasDevice = try SysfsFile.listDirectory(path).contains(where: include)
            })
        guard readable.isAvailable, !hasDevice else { return readable }
        return .unavailable(reason: .missingDevice, detail: "this machine has no \(noun) (\(classPath) is empty)")
    }
}
