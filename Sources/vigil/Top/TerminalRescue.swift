import Glibc

/// What a crash signal handler needs to give the terminal back: the bytes that leave the dashboard's screen mode and
/// the terminal settings to restore, prepared before the handlers are installed.
///
/// A signal handler may only call async-signal-safe functions: it cannot allocate, lock or build a string. So the
/// bytes and the settings live in C memory allocated once, filled by ``arm(descriptor:saved:leaving:)`` before any
/// handler is installed, and only read by the handler: `write(2)` them, `tcsetattr(3)`, then the signal's default
/// action (`SA_RESETHAND`) is raised again, so the process still dies of the signal and dumps core as it would have.
///
/// `@unchecked Sendable`: it wraps raw C memory that lives for the process; it is written only by `arm`, on one
/// thread, before the handlers that read it can run, and by `disarm` after they are uninstalled.
final class TerminalRescue: @unchecked Sendable {
    /// The one instance the handlers read; created before any handler is installed.
    static let shared = TerminalRescue()

    /// The crash signals a process can catch and still die of: faults, aborts (a Swift runtime trap raises
    /// `SIGILL` on x86-64 and `SIGTRAP` on arm64), and bad arithmetic.
    static let signals = [SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP]

    private static let capacity = 64
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    private let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)

    private init() {
        count.initialize(to: 0)
        descriptor.initialize(to: -1)
        saved.initialize(to: termios())
        previous.initialize(repeating: sigaction(), count: Self.signals.count)
    }

    /// Prepares the restoration (at most 64 bytes of `leaving`) and installs the handlers for ``signals``.
    func arm(descriptor terminal: Int32, saved settings: termios, leaving: String) {
        let leavingBytes = Array(leaving.utf8.prefix(Self.capacity))
        bytes.update(from: leavingBytes, count: leavingBytes.count)
        count.pointee = leavingBytes.count
        descriptor.pointee = terminal
        saved.pointee = settings
        for (index, number) in Self.signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in TerminalRescue.shared.rescue(number) }
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, previous + index)
        }
    }

    /// Puts the handlers that were installed before ``arm(descriptor:saved:leaving:)`` back.
    func disarm() {
        for (index, number) in Self.signals.enumerated() { sigaction(number, previous + index, nil) }
    }

    /// Runs in the signal handler: async-signal-safe calls only, on memory prepared beforehand.
    private func rescue(_ number: Int32) {
        _ = write(descriptor.pointee, bytes, count.pointee)
        _ = tcsetattr(descriptor.pointee, TCSANOW, saved)
        raise(number)
    }
}
