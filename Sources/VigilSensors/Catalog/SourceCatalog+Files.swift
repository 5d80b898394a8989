extension SourceCatalog {
    /// The file-system monitor: `files PATH`, a file or directory watched without recursion.
    static var filesEntries: [Entry] {
        [
            .source(id: "files", name: "File changes (inotify)", argumentName: "PATH") { options, path in
                FileSystemMonitor(path: path ?? ".", recursive: false, eventLoop: options.eventLoop)
            }
        ]
    }
}
