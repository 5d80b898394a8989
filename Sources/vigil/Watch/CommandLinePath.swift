import Glibc
import VigilSensors

/// The exact bytes of command-line arguments.
enum CommandLinePath {
    /// The exact bytes of the command-line argument `text` was decoded from.
    ///
    /// `CommandLine.arguments` decodes each argument as UTF-8 and replaces bytes that are not with U+FFFD, but a file
    /// name may hold such bytes: the argument that decodes to `text` is read again from `argv`, byte for byte.
    static func bytes(of text: String) -> BytePath {
        guard text.unicodeScalars.contains("\u{FFFD}") else { return BytePath(text) }
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            let path = BytePath(bytes: bytes)
            if path.lossyString == text { return path }
        }
        return BytePath(text)
    }
}
