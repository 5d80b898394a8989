/// How a value encodes itself: as an object (keyed), an array (unkeyed), a single value, or nothing.
///
/// ``SensorReading`` adds `"time"` beside a value's own fields, which only an object has room for: a value that
/// encodes as a number or a string goes under `"value"` instead. Asking an encoder for a keyed container after a
/// single value was encoded traps, so the shape is found first by encoding into a probe that records which container
/// the value asks for and keeps nothing.
enum EncodingShape: Equatable {
    case keyed, unkeyed, single, none

    /// The shape `value` encodes as.
    static func of(_ value: some Encodable) -> EncodingShape {
        let probe = ShapeProbe()
        try? value.encode(to: probe)
        return probe.shape
    }
}

/// An encoder that records the first container asked for and discards everything encoded.
private final class ShapeProbe: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var shape = EncodingShape.none

    private func record(_ asked: EncodingShape) {
        if shape == .none { shape = asked }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        record(.keyed)
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        record(.unkeyed)
        return DiscardingUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        record(.single)
        return DiscardingSingleValueContainer()
    }
}

private struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ShapeProbe
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer(encoder: encoder)
    }

    mutating func superEncoder() -> any Encoder { ShapeProbe() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ShapeProbe() }
}

private struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ShapeProbe
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ShapeProbe() }
}

private struct DiscardingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}
}
