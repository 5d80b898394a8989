import Glibc
import Testing

/// A fake sysfs root under a fresh temporary directory, with helpers to add IIO devices the way the kernel lays
/// them out (`<root>/bus/iio/devices/iio:deviceN`), and the device nodes under `<root>/dev`.
///
/// The directory is removed when the value is released.
package final class FakeIIOTree {
    package let root: String
    private let directory: TemporaryDirectory?

    package init() {
        directory = TemporaryDirectory("vigil-iio")
        root = directory!.path
        makeDirectory("bus/iio/devices")
        makeDirectory("dev")
    }

    /// A tree in an existing directory, which the caller removes.
    package init(at root: String) {
        directory = nil
        self.root = root
        makeDirectory("bus/iio/devices")
        makeDirectory("dev")
    }

    deinit {
        directory?.remove()
    }

    /// The sysfs directory of device N.
    package func devicePath(_ number: Int) -> String {
        "\(root)/bus/iio/devices/iio:device\(number)"
    }

    /// The device node path of device N.
    package func nodePath(_ number: Int) -> String {
        "\(root)/dev/iio:device\(number)"
    }

    /// Adds device N with a `name` and the given attribute files (relative to the device directory).
    @discardableResult
    package func addDevice(_ number: Int, name: String, files: [String: String] = [:]) -> String {
        let relative = "bus/iio/devices/iio:device\(number)"
        makeDirectory(relative)
        write("\(relative)/name", name + "\n")
        for (file, text) in files { write("\(relative)/\(file)", text) }
        return devicePath(number)
    }

    /// Removes device N's sysfs directory, as the kernel does when the device goes away.
    package func removeDevice(_ number: Int) {
        TemporaryDirectory.removeTree(devicePath(number))
    }

    /// Adds buffered-mode support to device N: `buffer/{enable,length}`, a trigger attribute, and scan elements.
    package func addBuffer(
        _ number: Int, elements: [(name: String, index: Int, type: String)], trigger: String? = nil
    ) {
        let device = "bus/iio/devices/iio:device\(number)"
        write("\(device)/buffer/enable", "0\n")
        write("\(device)/buffer/length", "2\n")
        for element in elements {
            write("\(device)/scan_elements/in_\(element.name)_en", "0\n")
            write("\(device)/scan_elements/in_\(element.name)_index", "\(element.index)\n")
            write("\(device)/scan_elements/in_\(element.name)_type", element.type + "\n")
        }
        if let trigger {
            write("\(device)/trigger/current_trigger", "\n")
            write("bus/iio/devices/trigger0/name", trigger + "\n")
        }
    }

    /// Writes `text` to `relative` under the root, creating directories as needed.
    package func write(_ relative: String, _ text: String) {
        let components = relative.split(separator: "/")
        if components.count > 1 { makeDirectory(components.dropLast().joined(separator: "/")) }
        let path = "\(root)/\(relative)"
        precondition(writeFile(path, text), "cannot write \(path): errno \(errno)")
    }

    /// Reads a file under the root, without its trailing newline.
    package func read(_ relative: String) -> String? {
        let descriptor = open("\(root)/\(relative)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Removes a file under the root.
    package func remove(_ relative: String) {
        _ = unlink("\(root)/\(relative)")
    }

    /// Creates a FIFO under the root (for a device node the test writes scans into).
    package func makeFIFO(_ relative: String) {
        precondition(mkfifo("\(root)/\(relative)", 0o600) == 0, "mkfifo: errno \(errno)")
    }

    /// Creates `relative` and its parents under the root.
    package func makeDirectory(_ relative: String) {
        var path = root
        for component in relative.split(separator: "/") {
            path += "/\(component)"
            if mkdir(path, 0o755) != 0 && errno != EEXIST { preconditionFailure("mkdir \(path): errno \(errno)") }
        }
    }
}

extension FakeIIOTree {
    /// Opens the FIFO at `relative` for writing (the reader must already have it open), writes `bytes` and closes
    /// it, which the reader sees as end of file.
    package func writeToFIFO(_ relative: String, _ bytes: [UInt8], closing: Bool = true) -> Int32 {
        let descriptor = open("\(root)/\(relative)", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        precondition(descriptor >= 0, "open FIFO for writing: errno \(errno)")
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short FIFO write")
        if closing { close(descriptor) }
        return descriptor
    }

    /// Adds the accelerometer of the real captures: x, y, z `le:s16/32>>0` and a 64-bit timestamp, a buffer, and a
    /// FIFO as its device node.
    package func addCaptureAccelerometer(_ number: Int = 0) {
        addDevice(
            number, name: "accel_3d",
            files: ["in_accel_x_raw": "0\n", "in_accel_y_raw": "0\n", "in_accel_z_raw": "0\n"])
        addBuffer(
            number,
            elements: [
                ("accel_x", 0, "le:s16/32>>0"), ("accel_y", 1, "le:s16/32>>0"), ("accel_z", 2, "le:s16/32>>0"),
                ("timestamp", 3, "le:s64/64>>0"),
            ])
        makeFIFO("dev/iio:device\(number)")
    }

    /// The captures folder: `shared/testdata/iio` beside the checkout (CI puts `shared` at `../shared`; a git worktree
    /// under `wt/` finds it one level further up), or nil when absent.
    package static let captures: String? = {
        let repository = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        for up in ["..", "../.."] {
            let folder = "/\(repository)/\(up)/shared/testdata/iio"
            if access("\(folder)/orientation-normal.bin", R_OK) == 0 { return folder }
        }
        return nil
    }()

    /// The bytes of capture `name`.
    package static func readCapture(_ name: String) throws -> [UInt8] {
        let path = "\(try #require(captures))/\(name)"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "cannot open \(path)")
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        try #require(count >= 0)
        return Array(bytes[0..<count])
    }
}
