/// The identity of an object, held weakly: whether a notification's sender is the object a filter wants.
///
/// An `ObjectIdentifier` alone is not enough: once the object is freed, a new object may get its address, and so
/// its identifier. A match therefore also needs the wanted object alive when the identifiers are compared, and that
/// is exact: if it is alive now, it was alive when the notification was posted, while the poster held its sender,
/// and two live objects never share an address.
final class WeakIdentity: @unchecked Sendable {
    // `@unchecked`: the object may be of any class, `Sendable` or not, so the compiler cannot check this type, but
    // it is safe: the weak reference is written once, here in `init`, and only loaded afterwards (weak loads are
    // atomic in the Swift runtime), and the object is never used, returned or retained beyond that load: only its
    // liveness is read.
    private weak var object: AnyObject?
    private let identifier: ObjectIdentifier

    init(_ object: AnyObject) {
        self.object = object
        identifier = ObjectIdentifier(object)
    }

    /// Whether `identifier` is this object's and the object is still alive.
    func matches(_ identifier: ObjectIdentifier?) -> Bool {
        identifier == self.identifier && object != nil
    }
}
