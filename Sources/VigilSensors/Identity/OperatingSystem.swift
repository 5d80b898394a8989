/// The operating system as its os-release(5) file describes it.
///
/// Read from `<etc>/os-release`, or from `<etc>/../usr/lib/os-release` when that is missing: one file, never the two
/// merged, as os-release(5) says. Every field is optional; a missing key is `nil`, a key given as `""` is an empty
/// string. ``fields`` keeps every assignment, including ones not named here (`DEBIAN_VERSION_FULL`, `SUPPORT_END`).
public struct OperatingSystem: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The file the fields were read from.
    public var path: String
    /// `NAME`, for example "Debian GNU/Linux"; os-release(5) says "Linux" when absent.
    public var name: String?
    /// `PRETTY_NAME`, for example "Debian GNU/Linux 12 (bookworm)".
    public var prettyName: String?
    /// `ID`, for example `debian`.
    public var id: String?
    /// `ID_LIKE`: the distributions this one derives from, closest first (`["rhel", "fedora"]`); empty when absent.
    public var idLike: [String]
    /// `VERSION`, for example "12 (bookworm)".
    public var version: String?
    /// `VERSION_ID`, for example `12`.
    public var versionID: String?
    /// `VERSION_CODENAME`, for example `bookworm`.
    public var versionCodename: String?
    /// `BUILD_ID`, for example `rolling`.
    public var buildID: String?
    /// `VARIANT`, for example "Server Edition".
    public var variant: String?
    /// `VARIANT_ID`, for example `server`.
    public var variantID: String?
    /// `IMAGE_ID`, for an image-based system.
    public var imageID: String?
    /// `IMAGE_VERSION`, for an image-based system.
    public var imageVersion: String?
    /// `CPE_NAME`, the CPE of the operating system.
    public var cpeName: String?
    /// `HOME_URL`.
    public var homeURL: String?
    /// Every assignment in the file, by key.
    public var fields: [String: String]
    /// The 1-based numbers of lines that were malformed (an unterminated quote, no `=`, a bad key) and skipped.
    public var malformedLines: [Int]

    /// The operating system described by the parsed file at `path`.
    package init(path: String, file: EnvironmentFile) {
        self.path = path
        let fields = file.values
        self.fields = fields
        malformedLines = file.malformedLines
        name = fields["NAME"]
        prettyName = fields["PRETTY_NAME"]
        id = fields["ID"]
        idLike = fields["ID_LIKE"].map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) } ?? []
        version = fields["VERSION"]
        versionID = fields["VERSION_ID"]
        versionCodename = fields["VERSION_CODENAME"]
        buildID = fields["BUILD_ID"]
        variant = fields["VARIANT"]
        variantID = fields["VARIANT_ID"]
        imageID = fields["IMAGE_ID"]
        imageVersion = fields["IMAGE_VERSION"]
        cpeName = fields["CPE_NAME"]
        homeURL = fields["HOME_URL"]
    }

    /// What `hostnamectl` shows as "Operating System": `PRETTY_NAME`, else `NAME` and `VERSION`, else "Linux".
    public var displayName: String {
        if let prettyName, !prettyName.isEmpty { return prettyName }
        let named = [name ?? "Linux", version].compactMap { $0 }.filter { !$0.isEmpty }
        return named.joined(separator: " ")
    }

    public var description: String { displayName }

    /// Every field but ``fields``, whose order JSON would not keep.
    private enum CodingKeys: String, CodingKey {
        case path, name, prettyName, id, idLike, version, versionID, versionCodename, buildID, variant, variantID
        case imageID, imageVersion, cpeName, homeURL, malformedLines
    }
}
