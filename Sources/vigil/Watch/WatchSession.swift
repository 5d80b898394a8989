import Dispatch
import Glibc
import VigilSensors

/// Runs targets until the run ends: subscribes and starts them, waits on ``RunControl`` (signals, write errors,
/// `--count`, `--once`, `--timeout`), stops them, and writes what is left.
///
/// The main thread waits on a semaphore; readings are formatted on the emitter's queue and written by the
/// ``OutputWriter``'s thread, so neither a slow source nor a blocked standard output delays a signal.
struct WatchSession {
    var targets: [WatchTarget]
    var settings: Emitter.Settings
    var interval: Duration?
    var timeout: Duration?
    /// The "watching …" line for standard error, or nil for none.
    var banner: String?

    /// Runs, and returns the exit status and the emitter (for what it printed).
    ///
    /// - Throws: ``ToolError`` when a source cannot start; nothing is left running then.
    func run() throws(ToolError) -> (status: Int32, emitter: Emitter) {
        let control = RunControl()
        let signals = control.handleSignals()
        defer { withExtendedLifetime(signals) {} }
        let writer = OutputWriter { message in control.finish(1, message: message) }
        let emitter = Emitter(settings, writer: writer, control: control)
        var running: [RunningTarget] = []
        for target in targets {
            do {
                running.append(try RunningTarget(target, emitter: emitter))
            } catch {
                for source in running { source.stop() }
                throw .runtime("\(target.id): \(error)")
            }
            if let interval, target.source.updateInterval != nil {
                try? target.source.setUpdateInterval(interval)
            }
        }
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { control.finish(0) }
        }
        if let banner { printError(banner) }
        var (status, message) = control.wait()
        for source in running { source.stop() }
        emitter.finish()
        if message == nil {
            // Finished normally: write everything, unless a signal asks to stop; stopped by a signal: a moment (short:
            // a signal must end vigil within a second even when standard output is blocked).
            let deadline: DispatchTime = status == 0 ? .distantFuture : .now() + .milliseconds(100)
            let written = writer.drain(until: deadline) { control.signalled != nil }
            if status == 0, let signalled = control.signalled { status = signalled }
            if !written, let failure = writer.failure { (status, message) = (1, failure) }
        }
        writer.reportDropped()
        if let message { printError("vigil: error: \(message)") }
        return (status, emitter)
    }
}

extension Duration {
    /// The duration as a Dispatch interval.
    var timeInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

/// Writes one line to standard error.
func printError(_ line: String) { OutputWriter.writeAll(line + "\n", to: 2) }
