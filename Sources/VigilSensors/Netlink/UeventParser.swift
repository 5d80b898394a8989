/// Decodes kernel uevent datagrams (`action@devpath\0KEY=VALUE\0…`).
///
/// Values keep their exact bytes (see ``Uevent``). Messages in udev's own format (starting with `libudev\0`) are
/// rejected: they come from a user-space daemon, and Vigil trusts only the kernel. The parser never traps; anything it
/// cannot use yields `nil`.
package enum UeventParser {
    private static let udevMagic: [UInt8] = Array("libudev".utf8) + [0]

    /// Decodes one datagram, or returns `nil` for udev-format, truncated or malformed input.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Uevent? {
        guard !bytes.isEmpty, !bytes.starts(with: udevMagic) else { return nil }
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
        guard let summary = fields.first, let at = summary.firstIndex(of: UInt8(ascii: "@")) else { return nil }
        let headerAction = BytePath(bytes: summary[summary.startIndex..<at])
        let headerPath = BytePath(bytes: summary[(at + 1)...])
        var properties: [String: BytePath] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")), equals > field.startIndex,
                // The kernel's property names are ASCII identifiers; one that is not UTF-8 could only be kept as a
                // look-alike, so the datagram is malformed.
                let key = String(validating: field[field.startIndex..<equals], as: UTF8.self)
            else { return nil }
            properties[key] = BytePath(bytes: field[(equals + 1)...])
        }
        guard let actionText = properties["ACTION"], actionText == headerAction,
            let action = actionText.string.flatMap(Uevent.Action.init(rawValue:)), let devpath = properties["DEVPATH"],
            devpath == headerPath, devpath.bytes.first == UInt8(ascii: "/"), let subsystem = properties["SUBSYSTEM"]
        else { return nil }
        var seqnum: UInt64?
        if let text = properties["SEQNUM"] {
            guard let value = text.string.flatMap({ UInt64($0) }) else { return nil }
            seqnum = value
        }
        return Uevent(
            action: action, devpath: devpath, subsystem: subsystem, devtype: properties["DEVTYPE"],
            devname: properties["DEVNAME"],
            driver: properties["DRIVER"], seqnum: seqnum, properties: properties)
    }

    /// Decodes one datagram held in an array.
    package static func parse(_ bytes: [UInt8]) -> Uevent? {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// Decodes one datagram if the kernel sent it (port 0, uid 0 in the credentials); `nil` for any other sender.
    package static func parse(_ bytes: UnsafeRawBufferPointer, from sender: NetlinkSender) -> Uevent? {
        sender.isKernelWithCredentials ? parse(bytes) : nil
    }

    /// Decodes one datagram held in an array if the kernel sent it.
    package static func parse(_ bytes: [UInt8], from sender: NetlinkSender) -> Uevent? {
        bytes.withUnsafeBytes { parse($0, from: sender) }
    }
}
