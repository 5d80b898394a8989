import Dispatch
import Glibc

/// The one way the long-running commands take signals, which loses none.
///
/// A command calls ``block(_:)`` first, on the main thread before any other thread starts: threads inherit the mask,
/// so a signal that arrives while the command is still setting up stays pending until it is taken, by ``wait(for:)``
/// or by a Dispatch signal source (which reads it through a `signalfd` once registered). Turning the default action
/// off with `SIG_IGN` and then making a source, as the commands did, discarded a signal that arrived before
/// Dispatch had registered the source, and the command ran on until killed.
enum HandledSignals {
    /// SIGINT and SIGTERM: what ends `watch`, `serve` and `publish`.
    static let stop: [Int32] = [SIGINT, SIGTERM]

    /// Blocks `numbers` on the calling thread, and so on every thread it starts from now on.
    static func block(_ numbers: [Int32]) {
        var set = signalSet(numbers)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one of `numbers` (blocked by ``block(_:)``) is pending and takes it.
    ///
    /// - Returns: The number of the signal taken.
    static func wait(for numbers: [Int32]) -> Int32 {
        var set = signalSet(numbers)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Runs `handler` on `queue` each time signal `number` (blocked by ``block(_:)``) arrives.
    ///
    /// - Returns: The source; keep it, and cancel it, for as long as the signal should be handled.
    static func source(
        _ number: Int32, on queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceSignal {
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }

    private static func signalSet(_ numbers: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
