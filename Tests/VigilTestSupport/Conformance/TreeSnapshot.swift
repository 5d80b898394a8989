import Glibc

/// Every file under a directory with its kind, size, mode, modification time and content: equal snapshots mean
/// nothing under it changed.
package struct TreeSnapshot: Equatable, Sendable {
    package struct File: Equatable, Sendable {
        let mode: UInt32
        let size: Int
        let modified: Int
        let content: String?
    }

    package let files: [String: File]

    /// Walks `root` (links are not followed).
    package init(_ root: String) {
        var files: [String: File] = [:]
        Self.walk(root, relative: "", into: &files)
        self.files = files
    }

    /// What differs from `other`, in words: the first few paths added, removed or changed.
    package func differences(from other: TreeSnapshot) -> [String] {
        let paths = Set(files.keys).union(other.files.keys).sorted()
        return paths.compactMap { path in
            switch (other.files[path], files[path]) {
            case (nil, _?): return "\(path) appeared"
            case (_?, nil): return "\(path) vanished"
            case (let before?, let after?) where before != after: return "\(path) changed"
            default: return nil
            }
        }
    }

    private static func walk(_ path: String, relative: String, into files: inout [String: File]) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let kind = info.st_mode & S_IFMT
        let content = kind == S_IFREG ? readWholeFile(path) : nil
        files[relative.isEmpty ? "." : relative] = File(
            mode: info.st_mode, size: Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec), content: content)
        guard kind == S_IFDIR else { return }
        let names = directoryEntries(path)
        for name in names {
            walk(path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name, into: &files)
        }
    }
}
