import VigilSensors

/// The `--help` texts of the tool and of each command.
enum Help {
    static let globalOptions = """
        Global options:
          --sys-root PATH   read sysfs from PATH instead of /sys
          --proc-root PATH  read procfs from PATH instead of /proc
          --netns NAME      watch the network inside the named network namespace
          -h, --help        show help
        """

    static let tool = """
        vigil: watch Linux kernel sensors and events live.

        Usage:
          vigil list                      list every source and whether this machine has it
          vigil watch [SOURCE…] [--json]  stream readings as they change (all available sources if none named)
          vigil watch files PATH          watch a file or directory
          vigil help [COMMAND]            show help for a command

        """ + globalOptions

    static let list = """
        Usage: vigil list

        Lists every source Vigil knows, with its availability on this machine and, if it is unavailable, why.

        """ + globalOptions

    static let watch = """
        Usage: vigil watch [SOURCE [ARGUMENT]]… [--json]

        Streams readings as they change: one readable line each, or one JSON object a line with --json
        ({"source": ID, "reading": {…}}). With no source named, watches every available source that needs no
        argument. Ctrl-C (SIGINT) or SIGTERM stops cleanly.

        File paths are bytes. Readable lines escape them like `ls -b` (a space as "\\ ", a newline as "\\n", a byte
        that is not UTF-8 in octal, as in "caf\\351"), so one event stays on one line. In JSON, "path" (and
        "oldPath") is the exact name when it is UTF-8; when it is not, "path" is only for display (U+FFFD for each
        invalid byte sequence) and "pathBytes" (and "oldPathBytes") holds the exact bytes in base64 (RFC 4648).

        Examples:
          vigil watch files /tmp
          vigil watch files /etc/hosts --json

          --json            print one JSON object a line
        """ + "\n" + globalOptions + "\n\n" + sources

    /// The sources `vigil watch` takes, from the public catalog, wrapped to the help's width.
    static var sources: String {
        let ids = SourceCatalog.builtIn.map { entry in entry.argumentName.map { entry.id + " " + $0 } ?? entry.id }
        var lines = ["Sources (vigil list says which this machine has):"]
        var line = " "
        for (index, id) in ids.enumerated() {
            let word = " " + id + (index == ids.count - 1 ? "" : ",")
            if line.count + word.count > 100 {
                lines.append(line)
                line = " "
            }
            line += word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    static func text(for command: String?) -> String? {
        switch command {
        case nil, "help": return tool
        case "list": return list
        case "watch": return watch
        case "top": return TopHelp.text
        default: return nil
        }
    }
}
