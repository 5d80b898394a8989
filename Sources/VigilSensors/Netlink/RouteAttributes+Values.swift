// Reads of the other value types netlink attributes carry (generic netlink's u16, u64, signed and nested values).
extension RouteAttributes {
    /// The integer at the start of `type`'s payload, in host byte order; `nil` when absent or shorter than a `T`.
    func integer<T: FixedWidthInteger>(_ type: UInt16, as: T.Type) -> T? {
        guard let range = self[type], range.count >= MemoryLayout<T>.size else { return nil }
        return bytes.load(T.self, at: range.lowerBound)
    }

    /// Whether a flag attribute (`NLA_FLAG`, no value) is present.
    func has(_ type: UInt16) -> Bool { self[type] != nil }

    /// The attributes nested in `type`; `nil` when absent or when one of them lies about its length (whether or not
    /// the sender set `NLA_F_NESTED`, which the kernel leaves out in many events).
    func nested(_ type: UInt16) -> RouteAttributes? {
        guard let range = self[type] else { return nil }
        return RouteAttributes(bytes, range: range)
    }

    /// The entries of a nested array (`type` holds attributes numbered 1, 2, … each holding attributes), in
    /// order; an entry that lies about its length is left out.
    func nestedList(_ type: UInt16) -> [RouteAttributes] {
        guard let list = nested(type) else { return [] }
        return list.payloads.sorted { $0.key < $1.key }.compactMap { RouteAttributes(bytes, range: $0.value) }
    }
}
