/// A failure in a netlink test's own setup, with what went wrong.
package struct NetlinkTestFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
