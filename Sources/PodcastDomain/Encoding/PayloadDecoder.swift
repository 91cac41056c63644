import CoreValues

/// Decodes event payloads, several times faster than Foundation's `JSONDecoder`, so that replaying a
/// million events into read models is not spent in JSON.
///
/// It reads the JSON this project writes: the payload is scanned once into a small tree whose leaves
/// point back into the bytes, and values are made only when a `Decodable` asks for them. It supports
/// what payloads use (objects, arrays, strings, numbers, booleans, null); special cases of
/// `JSONDecoder` for `Date`, `Data` and `URL` are not needed, since payloads carry none.
enum PayloadDecoder {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var description: String { "the payload is not valid JSON (at byte \(offset))" }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer) throws -> Value {
        var text = JSONText(bytes)
        let root = try Node.parse(&text, depth: 0)
        text.skipWhitespace()
        guard text.atEnd else { throw Malformed(offset: text.index) }
        return try Value(from: NodeDecoder(node: root, bytes: bytes, codingPath: []))
    }
}

/// A parsed JSON value; strings, numbers and keys are ranges of the payload's bytes.
enum Node {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    case null
    case bool(Bool)
    case number(Range<Int>)
    case string(Range<Int>, escaped: Bool)
    case array([Node])
    case object([(key: Range<Int>, value: Node)])

    static func parse(_ text: inout JSONText, depth: Int) throws -> Node {
        text.skipWhitespace()
        guard !text.atEnd, depth < 128 else { throw PayloadDecoder.Malformed(offset: text.index) }
        let start = text.index
        switch text.current {
        case UInt8(ascii: "\""):
            guard let (range, escaped) = text.string() else { throw PayloadDecoder.Malformed(offset: start) }
            return .string(range, escaped: escaped)
        case UInt8(ascii: "{"):
            text.index += 1
            var members: [(key: Range<Int>, value: Node)] = []
            if text.consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                guard let (key, _) = text.string(), text.consume(UInt8(ascii: ":")) else {
                    throw PayloadDecoder.Malformed(offset: text.index)
                }
                members.append((key, try parse(&text, depth: depth + 1)))
            } while text.consume(UInt8(ascii: ","))
            guard text.consume(UInt8(ascii: "}")) else { throw PayloadDecoder.Malformed(offset: text.index) }
            return .object(members)
        case UInt8(ascii: "["):
            text.index += 1
            var elements: [Node] = []
            if text.consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat { elements.append(try parse(&text, depth: depth + 1)) } while text.consume(UInt8(ascii: ","))
            guard text.consume(UInt8(ascii: "]")) else { throw PayloadDecoder.Malformed(offset: text.index) }
            return .array(elements)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            guard text.skipValue() else { throw PayloadDecoder.Malformed(offset: start) }
            switch text.bytes[start] {
            case UInt8(ascii: "t"): return .bool(true)
            case UInt8(ascii: "f"): return .bool(false)
            default: return .null
            }
        default:
            guard text.number() else { throw PayloadDecoder.Malformed(offset: start) }
            return .number(start..<text.index)
        }
    }
}

/// The `Decoder` over a ``Node``.
struct NodeDecoder: Decoder {
    let node: Node
    let bytes: UnsafeRawBufferPointer
    private let parentPath: [any CodingKey]
    /// The key of a leaf, appended to the path only when the path is asked for (in an error).
    private let pendingKey: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: Node, bytes: UnsafeRawBufferPointer, codingPath: [any CodingKey], pendingKey: (any CodingKey)? = nil) {
        self.node = node
        self.bytes = bytes
        self.parentPath = codingPath
        self.pendingKey = pendingKey
    }

    var codingPath: [any CodingKey] { pendingKey.map { parentPath + [$0] } ?? parentPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedNodes<Key>(members: members, bytes: bytes, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = node else { throw mismatch([Any].self) }
        return UnkeyedNodes(elements: elements, bytes: bytes, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "the payload holds another kind of value here"))
    }

    // Leaves.

    func string() throws -> String {
        guard case let .string(range, escaped) = node else { throw mismatch(String.self) }
        return JSONText.decodeString(UnsafeRawBufferPointer(rebasing: bytes[range]), escaped: escaped)
    }

    func number<Number: FixedWidthInteger>(_ type: Number.Type) throws -> Number {
        guard case .number(let range) = node else { throw mismatch(type) }
        var text = JSONText(UnsafeRawBufferPointer(rebasing: bytes[range]))
        let negative = text.consume(UInt8(ascii: "-"))
        guard let magnitude = text.integer(), text.atEnd,
            let value = Number(exactly: negative ? -magnitude : magnitude)
        else { throw mismatch(type) }
        return value
    }

    func double() throws -> Double {
        guard case .number(let range) = node,
            let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        else { throw mismatch(Double.self) }
        return value
    }
}

extension NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        if case .null = node { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = node else { throw mismatch(type) }
        return value
    }

    func decode(_ type: String.Type) throws -> String { try string() }
    func decode(_ type: Double.Type) throws -> Double { try double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try double()) }
    func decode(_ type: Int.Type) throws -> Int { try number(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try number(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try number(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try number(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try number(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try number(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try number(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try number(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try number(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try number(type) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: self) }
}

/// An object's members, found by comparing key bytes.
struct KeyedNodes<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: Range<Int>, value: Node)]
    let bytes: UnsafeRawBufferPointer
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        members.compactMap { Key(stringValue: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[$0.key]), as: UTF8.self)) }
    }

    private func node(_ key: Key) -> Node? {
        var name = key.stringValue
        return name.withUTF8 { wanted in
            members.first { member in
                member.key.count == wanted.count
                    && UnsafeRawBufferPointer(rebasing: bytes[member.key]).elementsEqual(UnsafeRawBufferPointer(wanted))
            }?.value
        }
    }

    private func required(_ key: Key) throws -> Node {
        guard let node = node(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the payload has no \(key.stringValue)"))
        }
        return node
    }

    /// A decoder for a member. Leaves are read without one (see `leaf`): building a coding path for
    /// every field would cost more than reading it.
    private func decoder(_ key: Key) throws -> NodeDecoder {
        NodeDecoder(node: try required(key), bytes: bytes, codingPath: codingPath + [key])
    }

    /// A decoder for a leaf member whose path is made only if it fails.
    private func leaf(_ key: Key) throws -> NodeDecoder {
        NodeDecoder(node: try required(key), bytes: bytes, codingPath: codingPath, pendingKey: key)
    }

    func contains(_ key: Key) -> Bool { node(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try leaf(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try leaf(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try leaf(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try leaf(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try leaf(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try leaf(key).number(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try leaf(key).number(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try leaf(key).number(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try leaf(key).number(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try leaf(key).number(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try leaf(key).number(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try leaf(key).number(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try leaf(key).number(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try leaf(key).number(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try leaf(key).number(type) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try Value(from: decoder(key)) }

    // One lookup for an optional member, instead of the default's three.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let node = node(key), !node.isNull else { return nil }
        return try NodeDecoder(node: node, bytes: bytes, codingPath: codingPath, pendingKey: key).string()
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard let node = node(key), !node.isNull else { return nil }
        return try Value(from: NodeDecoder(node: node, bytes: bytes, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { NodeDecoder(node: .object(members), bytes: bytes, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
}

/// An array's elements, in order.
struct UnkeyedNodes: UnkeyedDecodingContainer {
    let elements: [Node]
    let bytes: UnsafeRawBufferPointer
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [Node], bytes: UnsafeRawBufferPointer, codingPath: [any CodingKey]) {
        self.elements = elements
        self.bytes = bytes
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return NodeDecoder(node: elements[currentIndex], bytes: bytes, codingPath: codingPath + [Index(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: next()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
