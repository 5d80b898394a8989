/// The tool's version: the one constant `vigil --version` and the man page print.
enum Version {
    static let string = "0.1.0"
}
