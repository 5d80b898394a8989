@testable import VigilSensors

extension ReadingTime {
    /// One fixed time, for comparing what happened regardless of when.
    static let fixed = ReadingTime(monotonic: .now, wall: .zero)
}

extension FileSystemEvent {
    /// The same event at ``ReadingTime/fixed``, for comparing what happened regardless of when.
    var untimed: FileSystemEvent {
        FileSystemEvent(
            kind: kind, path: path, oldPath: oldPath, isDirectory: isDirectory, time: .fixed)
    }
}

extension Array where Element == FileSystemEvent {
    /// The same events at ``ReadingTime/fixed``.
    var untimed: [FileSystemEvent] { map(\.untimed) }
}

extension Array where Element == SensorEvent<FileSystemEvent> {
    /// The file-system events among these, at ``ReadingTime/fixed``.
    var untimed: [FileSystemEvent] { compactMap(\.payload).untimed }
}
