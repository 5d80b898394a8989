/// The built-in sources: every source the `vigil` tool offers, with its id, a human name, whether this machine has
/// it, and how to make one.
///
/// A dashboard lists ``builtIn``, asks each entry for its ``Entry/availability(_:)``, and makes the available ones
/// with ``Entry/make(_:argument:)``; each made ``CatalogSource`` starts, stops and publishes printable, encodable
/// readings the same way, so no cast to a concrete source is needed:
///
/// ```swift
/// let options = SourceCatalog.Options()
/// var running: [CatalogSource] = []
/// for entry in SourceCatalog.builtIn where entry.argumentName == nil && entry.availability(options).isAvailable {
///     let source = try entry.make(options)
///     subscriptions.append(source.readings.subscribe { print("\(entry.id): \($0)") })
///     try source.startMonitoring()
///     running.append(source)
/// }
/// ```
public enum SourceCatalog {
    /// Every built-in source, in the order `vigil list` shows them: files, netlink, IIO, sysfs and procfs, then
    /// host reachability.
    public static var builtIn: [Entry] {
        filesEntries + networkEntries + wifiEntries + iioEntries + systemEntries + reachEntries
    }

    /// The built-in entry with this id (`battery`, `cpu`, `files`, …), or nil if there is none.
    public static func entry(id: String) -> Entry? {
        builtIn.first { $0.id == id }
    }
}
