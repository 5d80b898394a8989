/// The bytes that turn the frame on the screen into the next one: only the lines that changed are rewritten.
struct FrameDiff {
    private var previous: [String] = []

    /// The escape sequences and text that draw `lines` over the previous frame; with `full`, the screen is cleared
    /// and every line drawn (after a resize, when the terminal may have moved what was on it).
    mutating func update(to lines: [String], full: Bool) -> String {
        var output = full ? "\u{1B}[H\u{1B}[2J" : ""
        for (index, line) in lines.enumerated() where full || index >= previous.count || previous[index] != line {
            // Erase first, then write: with line wrap off the cursor stays on the last column after a full-width
            // line, so erasing after it would remove the last character.
            output += "\u{1B}[\(index + 1);1H\u{1B}[2K" + line + "\u{1B}[0m"
        }
        previous = lines
        return output
    }
}
