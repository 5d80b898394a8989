import VigilSensors

extension Catalog {
    /// The file-system monitor: `vigil watch files PATH`.
    static var filesEntries: [CatalogEntry] {
        [
            .source(id: "files", name: "File changes (inotify)", argumentName: "PATH") { _, path in
                FileSystemMonitor(path: path ?? ".", recursive: false)
            }
        ]
    }
}
