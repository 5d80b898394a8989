/// The identity of an object, held weakly: whether a notification's sender is the object a filter wants.
///
/// An `ObjectIdentifier` alone is not enough: once the object is freed, a new object may get its address, and so
/// its identifier. A match therefore also needs the wanted object alive when the identifiers are compared, and that
/// is exact when they are compared while the poster holds its sender (`NotificationHub.post(_:from:)` does):
/// two live objects never share an address.
///
/// The object must be `Sendable`: holding even a weak reference to a non-`Sendable` object in a type shared across
/// threads is something Swift 6 cannot check, and Vigil does not assert it unchecked.
final class WeakIdentity: Sendable {
    private weak let object: (any AnyObject & Sendable)?
    let identifier: ObjectIdentifier

    init(_ object: any AnyObject & Sendable) {
        self.object = object
        identifier = ObjectIdentifier(object)
    }

    /// Whether the object is still alive.
    var isAlive: Bool {
        object != nil
    }
}
