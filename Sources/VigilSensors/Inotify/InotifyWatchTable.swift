/// Maps inotify watch descriptors to the paths they watch, and back.
///
/// The kernel returns the same descriptor when an inode is watched again, and reuses numbers after a watch is
/// removed; the table follows both (the latest path wins) and renames whole subtrees when a directory moves. Paths
/// are compared byte for byte.
struct InotifyWatchTable: Sendable {
    private var paths: [Int32: BytePath] = [:]
    private var descriptors: [BytePath: Int32] = [:]

    /// The path watched by `watchDescriptor`.
    subscript(watchDescriptor: Int32) -> BytePath? { paths[watchDescriptor] }

    /// The descriptor watching `path`.
    func watchDescriptor(for path: BytePath) -> Int32? { descriptors[path] }

    var count: Int { paths.count }

    /// Records that `watchDescriptor` watches `path`, replacing any earlier mapping of either.
    mutating func insert(_ watchDescriptor: Int32, path: BytePath) {
        if let old = paths[watchDescriptor] { descriptors[old] = nil }
        if let old = descriptors[path] { paths[old] = nil }
        paths[watchDescriptor] = path
        descriptors[path] = watchDescriptor
    }

    /// Forgets `watchDescriptor`; returns the path it watched.
    @discardableResult
    mutating func remove(_ watchDescriptor: Int32) -> BytePath? {
        guard let path = paths.removeValue(forKey: watchDescriptor) else { return nil }
        descriptors[path] = nil
        return path
    }

    /// The descriptors watching `path` or anything below it.
    func watchDescriptors(under path: BytePath) -> [Int32] {
        paths.compactMap { $0.value.isEqualOrBelow(path) ? $0.key : nil }
    }

    /// Renames `old` and everything below it to `new` (a directory moved inside the watched tree).
    mutating func rename(_ old: BytePath, to new: BytePath) {
        let moved = watchDescriptors(under: old)
        for watchDescriptor in moved {
            guard let path = paths[watchDescriptor] else { continue }
            insert(watchDescriptor, path: path.replacingPrefix(old, with: new))
        }
    }
}
