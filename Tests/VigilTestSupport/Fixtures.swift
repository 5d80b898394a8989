/// The data files of `Tests/Fixtures` (real devices' data: EDIDs, DMI tables, os-release files; their sources and
/// licences are in the repository's `NOTICE`, their expected values in each folder's README).
package enum Fixtures {
    /// `Tests/Fixtures` in this checkout.
    package static let directory: String = {
        let repository = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        return "/\(repository)/Tests/Fixtures"
    }()

    /// The bytes of `Tests/Fixtures/<relativePath>`; nil when it cannot be read.
    package static func bytes(_ relativePath: String) -> [UInt8]? {
        readWholeBytes(directory + "/" + relativePath)
    }

    /// The real EDID `Tests/Fixtures/edid/<name>`, for example `monitor-dell-u2719d-dp-cta.bin`.
    package static func edid(_ name: String) -> [UInt8]? {
        bytes("edid/" + name)
    }

    /// The path of `relative` under ``directory``.
    package static func path(_ relative: String) -> String { directory + "/" + relative }

    /// The names in the fixture folder `relative`, sorted, without its README.
    package static func names(_ relative: String) -> [String] {
        (ProcessProbe.entries(of: path(relative)) ?? []).filter { $0 != "README.md" }.sorted()
    }
}
