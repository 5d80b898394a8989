/// The real device data under `Tests/Fixtures` (DMI tables, os-release files), each folder with a README that gives
/// its source, licence and expected values; the project's NOTICE file carries their attribution.
package enum Fixtures {
    /// `Tests/Fixtures` in this checkout.
    package static let directory: String = {
        let repository = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        return "/\(repository)/Tests/Fixtures"
    }()

    /// The path of `relative` under ``directory``.
    package static func path(_ relative: String) -> String { directory + "/" + relative }

    /// The names in the fixture folder `relative`, sorted, without its README.
    package static func names(_ relative: String) -> [String] {
        (ProcessProbe.entries(of: path(relative)) ?? []).filter { $0 != "README.md" }.sorted()
    }
}
