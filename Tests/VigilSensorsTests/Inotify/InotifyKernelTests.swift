import Testing
import VigilTestSupport

/// Every test that uses inotify runs inside this serialized suite, because one of them lowers
/// `fs.inotify.max_user_watches` for a moment and would make a parallel test's watch fail; the inotify gate keeps
/// it apart from the `vigil` tests' suite of the same name, whose children watch files.
@Suite(.serialized, .inotifyGate, .timeLimit(.minutes(10))) enum InotifyKernelTests {
    /// Open inotify descriptors: only this suite opens them, so parallel suites cannot disturb the count.
    static func inotifyDescriptorCount() -> Int {
        ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:inotify")
    }
}
