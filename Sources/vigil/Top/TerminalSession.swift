import Glibc
import VigilSensors

/// The terminal in the dashboard's mode: raw input, the alternate screen, the cursor hidden, no line wrap; and the
/// way back to exactly the settings and screen it had.
struct TerminalSession: Sendable {
    /// The descriptor the screen is drawn on and whose settings change.
    let descriptor: Int32
    /// The settings before ``enter(descriptor:)``, put back by ``leave()``.
    private let saved: termios

    /// Enters the alternate screen, hides the cursor, turns off line wrap; reset in the reverse order by leaving.
    private static let entering = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
    private static let leaving = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    /// Saves the terminal's settings, switches it to raw input (bytes as typed, no echo, Ctrl-C and Ctrl-S as
    /// keys) and to the alternate screen, and arms ``TerminalRescue`` for crash signals.
    ///
    /// - Returns: The session, or nil when `descriptor` is not a terminal.
    static func enter(descriptor: Int32) -> TerminalSession? {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        let session = TerminalSession(descriptor: descriptor, saved: settings)
        TerminalRescue.shared.arm(descriptor: descriptor, saved: settings, leaving: leaving)
        var raw = settings
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        _ = tcsetattr(descriptor, TCSAFLUSH, &raw)
        session.write(entering)
        return session
    }

    /// Leaves the alternate screen (the shell's screen comes back as it was), shows the cursor, restores the saved
    /// settings, and uninstalls the crash handlers.
    func leave() {
        write(Self.leaving)
        var settings = saved
        _ = tcsetattr(descriptor, TCSADRAIN, &settings)
        TerminalRescue.shared.disarm()
    }

    /// The terminal's size in columns and rows (`TIOCGWINSZ`), or 80×24 when it does not say.
    var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Writes `text` completely, retrying after a signal or a short write (see `writingFully`); a terminal that
    /// went away takes nothing more.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = try? writingFully(UnsafeRawBufferPointer(bytes)) { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
