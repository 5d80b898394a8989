import Glibc

/// A GNSS receiver's node and what sysfs says it is.
struct GNSSDevice: Sendable, Equatable {
    /// The node read: `<devRoot>/gnssN`, or the serial device given.
    let path: BytePath
    /// The receiver type from `class/gnss/gnssN/type` (`UBX`, `SiRF`, `MTK`, `NMEA`), or nil.
    let type: String?
    /// Why the node must not be opened: a fake sysfs tree's receiver is not this machine's `/dev/gnssN`.
    var refusal: String?

    /// The longest type kept: the kernel's are a few letters, a hostile tree's need not be.
    static let maximumTypeLength = 32

    /// Where a receiver is found.
    enum Location: Sendable {
        /// The first `gnssN` of `<root>/class/gnss`, opened as `<devRoot>/gnssN`; found but never opened when
        /// `devRoot` is nil, for `refusal`.
        case discovered(root: String, devRoot: String?, refusal: String = "")
        /// A serial device (a USB receiver's `ttyACM0`) by path.
        case serial(BytePath)
    }

    /// The receiver at `location`.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` when `class/gnss` has no `gnssN` (or is missing) or the serial
    ///   device does not exist; another ``SensorError`` when the class cannot be listed.
    static func find(_ location: Location) throws(SensorError) -> GNSSDevice {
        switch location {
        case .serial(let path):
            guard SysfsFile.exists(path) else { throw .notFound(path: path.displayText) }
            return GNSSDevice(path: path, type: nil)
        case .discovered(let root, let devRoot, let refusal):
            let classPath = SysfsClass.path(root: root, className: "gnss")
            let entries = try SysfsFile.listDirectory(classPath).compactMap { entry in
                number(entry).map { (entry, $0) }
            }
            guard let (entry, _) = entries.min(by: { $0.1 < $1.1 }) else {
                throw .notFound(path: classPath + "/gnss0")
            }
            let text = (try? SysfsFile.readText(classPath + "/" + entry + "/type")) ?? ""
            let type = text.isEmpty ? nil : String(text.prefix(maximumTypeLength))
            guard let devRoot else {
                return GNSSDevice(path: BytePath(classPath + "/" + entry), type: type, refusal: refusal)
            }
            return GNSSDevice(path: BytePath(devRoot + "/" + entry), type: type)
        }
    }

    /// The number of a `gnssN` entry, or nil for another name.
    static func number(_ entry: String) -> Int? {
        guard entry.hasPrefix("gnss") else { return nil }
        let digits = entry.dropFirst(4)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// Opens the node read-only and non-blocking; a terminal is put in raw mode (bytes as they come, no echo, no line
    /// editing), its speed left as it is.
    ///
    /// Wraps `open(2)`, `tcgetattr(3)`, `cfmakeraw(3)` and `tcsetattr(3)`.
    ///
    /// - Throws: A ``SensorError`` naming the node when it cannot be opened.
    func open() throws(SensorError) -> FileDescriptor {
        if let refusal { throw .unavailable(source: path.displayText, reason: refusal) }
        let raw = path.withCString { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard raw >= 0 else { throw SensorError.from(Errno.current, call: "open", path: path.displayText) }
        var settings = termios()
        if tcgetattr(raw, &settings) == 0 {
            cfmakeraw(&settings)
            settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
            _ = tcsetattr(raw, TCSANOW, &settings)
        }
        return FileDescriptor(raw)
    }
}
