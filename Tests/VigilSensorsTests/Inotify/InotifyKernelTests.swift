import Testing

/// Every test that uses inotify runs inside this serialized suite, because one of them lowers
/// `fs.inotify.max_user_watches` for a moment and would make a parallel test's watch fail.
@Suite(.serialized, .timeLimit(.minutes(10))) enum InotifyKernelTests {
    /// Open inotify descriptors: only this suite opens them, so parallel suites cannot disturb the count.
    static func inotifyDescriptorCount() -> Int {
        ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:inotify")
    }
}
