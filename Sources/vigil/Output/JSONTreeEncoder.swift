/// An `Encoder` that builds a ``JSONValue`` tree and writes every number that is not finite as `null`, noting where.
///
/// `JSONEncoder` throws on NaN and infinity, which would lose the whole line; here the line stays and the envelope's
/// `"reason"` names the fields that were not finite.
final class JSONTreeEncoder {
    /// The dotted paths of the fields that held a number that is not finite, in encoding order.
    private(set) var nonFinite: [String] = []

    /// Encodes `value` into a tree.
    func encode(_ value: some Encodable) -> JSONValue {
        let root = Node()
        try? value.encode(to: TreeEncoder(node: root, path: [], owner: self))
        return root.value
    }

    fileprivate func noteNonFinite(at path: [String]) {
        nonFinite.append(path.isEmpty ? "value" : path.joined(separator: "."))
    }

    /// A value being built: a reference, so nested containers can fill it in after they are handed out.
    fileprivate final class Node {
        enum Content {
            case empty
            case single(JSONValue)
            case object([(key: String, node: Node)])
            case array([Node])
        }

        var content = Content.empty

        var value: JSONValue {
            switch content {
            case .empty: return .null
            case .single(let value): return value
            case .object(let fields): return .object(fields.map { ($0.key, $0.node.value) })
            case .array(let nodes): return .array(nodes.map(\.value))
            }
        }

        /// The child for `key`, created (or reused, so that `super` encoders merge) on first use.
        func child(_ key: String) -> Node {
            var fields: [(key: String, node: Node)] = []
            if case .object(let existing) = content { fields = existing }
            if let found = fields.first(where: { $0.key == key }) { return found.node }
            let node = Node()
            fields.append((key, node))
            content = .object(fields)
            return node
        }

        func makeObject() {
            if case .object = content { return }
            content = .object([])
        }

        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }

        func append() -> Node {
            var nodes: [Node] = []
            if case .array(let existing) = content { nodes = existing }
            let node = Node()
            nodes.append(node)
            content = .array(nodes)
            return node
        }

        var count: Int {
            if case .array(let nodes) = content { return nodes.count }
            return 0
        }
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = String(index)
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private struct TreeEncoder: Encoder {
    let node: JSONTreeEncoder.Node
    let path: [String]
    let owner: JSONTreeEncoder
    var codingPath: [any CodingKey] { path.map { IndexKey(stringValue: $0) ?? IndexKey(0) } }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(node: node, path: path, owner: owner))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedTreeContainer(node: node, path: path, owner: owner)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeContainer(node: node, path: path, owner: owner)
    }
}

/// Stores one value into `node`: primitives directly, anything else through its own `encode(to:)`.
private func store(_ value: some Encodable, in node: JSONTreeEncoder.Node, path: [String], owner: JSONTreeEncoder) {
    if let primitive = primitive(value, path: path, owner: owner) {
        node.content = .single(primitive)
    } else {
        try? value.encode(to: TreeEncoder(node: node, path: path, owner: owner))
    }
}

/// The JSON value of a primitive (`String`, `Bool`, an integer or a floating-point number), or nil for anything else.
private func primitive(_ value: some Encodable, path: [String], owner: JSONTreeEncoder) -> JSONValue? {
    switch value {
    case let string as String: return .string(string)
    case let bool as Bool: return .bool(bool)
    case let double as Double: return number(double, path: path, owner: owner)
    case let float as Float: return number(Double(float), path: path, owner: owner)
    case let integer as any BinaryInteger: return .number(String(describing: integer))
    default: return nil
    }
}

private func number(_ value: Double, path: [String], owner: JSONTreeEncoder) -> JSONValue {
    guard value.isFinite else {
        owner.noteNonFinite(at: path)
        return .null
    }
    // Swift prints the shortest text that reads back as the same Double; "1e+308" and "-0.0" are valid JSON.
    if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
    return .number(String(describing: value))
}

private struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONTreeEncoder.Node
    let path: [String]
    let owner: JSONTreeEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) { node.child(key.stringValue).content = .single(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
        store(value, in: node.child(key.stringValue), path: path + [key.stringValue], owner: owner)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(
            KeyedTreeContainer<NestedKey>(node: child, path: path + [key.stringValue], owner: owner))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(key.stringValue)
        child.makeArray()
        return UnkeyedTreeContainer(node: child, path: path + [key.stringValue], owner: owner)
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.child("super"), path: path, owner: owner) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.child(key.stringValue), path: path + [key.stringValue], owner: owner)
    }
}

private struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let node: JSONTreeEncoder.Node
    let path: [String]
    let owner: JSONTreeEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.count }

    private var nextPath: [String] { path + [String(node.count)] }

    mutating func encodeNil() { node.append().content = .single(.null) }

    mutating func encode<T: Encodable>(_ value: T) {
        let elementPath = nextPath
        store(value, in: node.append(), path: elementPath, owner: owner)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let elementPath = nextPath
        let child = node.append()
        child.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(node: child, path: elementPath, owner: owner))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let elementPath = nextPath
        let child = node.append()
        child.makeArray()
        return UnkeyedTreeContainer(node: child, path: elementPath, owner: owner)
    }

    mutating func superEncoder() -> any Encoder {
        let elementPath = nextPath
        return TreeEncoder(node: node.append(), path: elementPath, owner: owner)
    }
}

private struct SingleTreeContainer: SingleValueEncodingContainer {
    let node: JSONTreeEncoder.Node
    let path: [String]
    let owner: JSONTreeEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { node.content = .single(.null) }

    mutating func encode<T: Encodable>(_ value: T) { store(value, in: node, path: path, owner: owner) }
}
