/// Every source the `vigil` tool knows.
///
/// Each source family adds one file, `Catalog+Family.swift`, with a static `…Entries` list, and names that list
/// once in ``all``.
enum Catalog {
    /// All entries, in the order `vigil list` shows them.
    static var all: [CatalogEntry] {
        filesEntries + networkEntries + iioEntries
    }

    /// The entry with this id, if any.
    static func entry(_ id: String) -> CatalogEntry? {
        all.first { $0.id == id }
    }
}
