/// The identity of an object, held weakly: whether a notification's sender is the object a filter wants.
///
/// An `ObjectIdentifier` alone is not enough: once the object is freed, a new object may get its address, and so
/// its identifier. A match therefore also needs the wanted object alive when the identifiers are compared, and that
/// is exact: if it is alive now, it was alive when the notification was posted, while the poster held its sender,
/// and two live objects never share an address.
///
/// The object must be `Sendable`: holding even a weak reference to a non-`Sendable` object in a type shared across
/// threads is something Swift 6 cannot check, and Vigil does not assert it unchecked.
final class WeakIdentity: Sendable {
    private weak let object: (any AnyObject & Sendable)?
    private let identifier: ObjectIdentifier

    init(_ object: any AnyObject & Sendable) {
        self.object = object
        identifier = ObjectIdentifier(object)
    }

    /// Whether `identifier` is this object's and the object is still alive.
    func matches(_ identifier: ObjectIdentifier?) -> Bool {
        identifier == self.identifier && object != nil
    }
}
