import Dispatch
import Synchronization
import Vigil
import VigilSensors

/// The live dashboard: takes readings, samples the plotted values once a second, and redraws the terminal at most
/// a few times a second, writing only the lines that changed.
///
/// Everything runs on ``queue``: the readings are delivered there, the timers fire there and the frame is written
/// from there, so the state's lock is hardly ever contended (only ``end()`` comes from elsewhere); it is a lock so
/// that the compiler checks the sharing.
final class TopDashboard: Sendable {
    /// The queue readings, timers, keys and signals are handled on.
    let queue = DispatchQueue(label: "vigil.top")
    private let terminal: TerminalSession
    private let filesTitle: String?
    private let state: FutexMutex<Drawing>

    /// How long readings are gathered before a redraw: at most four frames a second.
    static let coalescing: DispatchTimeInterval = .milliseconds(250)

    private struct Drawing {
        var top: TopState
        var diff = FrameDiff()
        var isDrawScheduled = false
        var needsFullRedraw = true
        var isEnded = false
    }

    /// A dashboard of `rowSources` (in order) drawn on `terminal`, with a files pane titled `filesTitle` if set.
    init(terminal: TerminalSession, rowSources: [String], filesTitle: String?) {
        self.terminal = terminal
        self.filesTitle = filesTitle
        state = FutexMutex(Drawing(top: TopState(rowSources: rowSources)))
    }

    /// Takes a reading of `source`, then redraws soon; call on ``queue``.
    func record(_ reading: any CatalogReading, from source: String) {
        state.withLock { $0.top.record(reading, from: source, at: .now) }
        scheduleDraw()
    }

    /// Appends the plotted values to their histories and redraws (the sparklines move, highlights fade); call on
    /// ``queue`` once a second.
    func sample() {
        state.withLock { $0.top.sample() }
        draw()
    }

    /// Redraws everything at the terminal's new size; call on ``queue``.
    func resized() {
        state.withLock { $0.needsFullRedraw = true }
        draw()
    }

    private func scheduleDraw() {
        let isScheduled = state.withLock { drawing in
            defer { drawing.isDrawScheduled = true }
            return drawing.isDrawScheduled
        }
        guard !isScheduled else { return }
        queue.asyncAfter(deadline: .now() + Self.coalescing) { [self] in draw() }
    }

    /// Lays out the frame at the terminal's current size and writes what changed; call on ``queue``.
    func draw() {
        let (width, height) = terminal.size
        let layout = TopLayout(width: width, height: height, now: .now, clock: TopClock.now(), filesTitle: filesTitle)
        let output = state.withLock { drawing -> String in
            drawing.isDrawScheduled = false
            guard !drawing.isEnded else { return "" }
            defer { drawing.needsFullRedraw = false }
            return drawing.diff.update(to: layout.lines(drawing.top), full: drawing.needsFullRedraw)
        }
        if !output.isEmpty { terminal.write(output) }
    }

    /// Stops drawing, from any thread: a frame that starts after this writes nothing, so a redraw scheduled for
    /// later (a reading's, 250 ms on) cannot land on the shell's screen once the terminal has been left.
    func end() {
        state.withLock { $0.isEnded = true }
    }
}
