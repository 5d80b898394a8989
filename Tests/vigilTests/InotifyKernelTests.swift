import Testing
import VigilTestSupport

/// Every `vigil` test whose child watches files runs inside this serialized suite, which holds the inotify gate it
/// shares with the sensor tests' suite of the same name (one of those lowers `fs.inotify.max_user_watches` for a
/// moment and would make a child's watch fail).
@Suite(.serialized, .inotifyGate, .timeLimit(.minutes(10))) enum InotifyKernelTests {}
