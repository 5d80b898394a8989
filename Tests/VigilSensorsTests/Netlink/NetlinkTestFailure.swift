/// A failure in a netlink test's own setup, with what went wrong.
struct NetlinkTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
