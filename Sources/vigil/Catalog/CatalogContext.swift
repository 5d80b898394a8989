/// The global options every catalog entry receives: where the kernel's file systems are, and which network
/// namespace to use.
struct CatalogContext: Sendable {
    /// Root of sysfs (`--sys-root`), `/sys` by default; tests and demos point it at a fake tree.
    var sysRoot = "/sys"
    /// Root of procfs (`--proc-root`), `/proc` by default.
    var procRoot = "/proc"
    /// A named network namespace (`--netns`), or nil for the current one.
    var networkNamespace: String?
}
