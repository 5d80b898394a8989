import Glibc

/// Opening device nodes that must be character devices (evdev, `/dev/rfkill`).
enum CharacterDevice {
    /// Opens `path` read-only, non-blocking and close-on-exec, refusing anything but a character device: a FIFO, a
    /// regular file or a directory where the node should be is a ``SensorError/wrongFileType(path:found:expected:)``,
    /// checked before opening and again on the open descriptor.
    ///
    /// - Parameter expected: What the node should be, for the message (`an evdev character device`).
    /// - Throws: ``SensorError/wrongFileType(path:found:expected:)``, ``SensorError/permissionDenied(path:)``,
    ///   ``SensorError/notFound(path:)``, or another mapped error of `stat`, `open` or `fstat`.
    static func open(_ path: String, expected: String) throws(SensorError) -> FileDescriptor {
        let before: FileKind
        do {
            before = try FileKind.of(path: path)
        } catch {
            throw SensorError.from(error, call: "stat", path: path)
        }
        guard before == .characterDevice else {
            throw .wrongFileType(path: path, found: "\(before)", expected: expected)
        }
        let raw: Int32
        do {
            raw = try retryingOnInterrupt("open") { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            throw SensorError.from(error, call: "open", path: path)
        }
        let descriptor = FileDescriptor(raw)
        let kind: FileKind
        do {
            kind = try FileKind.of(descriptor: descriptor.rawValue)
        } catch {
            descriptor.close()
            throw SensorError.from(error, call: "fstat", path: path)
        }
        guard kind == .characterDevice else {
            descriptor.close()
            throw .wrongFileType(path: path, found: "\(kind)", expected: expected)
        }
        return descriptor
    }
}
