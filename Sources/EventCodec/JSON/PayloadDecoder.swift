import CoreValues

/// Decodes event payloads about twice as fast as Foundation's `JSONDecoder` (`episodic-bench codec`),
/// so that replaying a million events into read models is not spent in JSON.
///
/// It reads the JSON this project writes: the payload is scanned once into a flat list of nodes
/// (``JSONDocument``) whose leaves point back into the bytes, and values are made only when a
/// `Decodable` asks for them. A decoder is a document and a node's index, small enough to be passed as
/// `any Decoder` without an allocation; a coding path is worked out only for an error. It supports what
/// payloads use (objects, arrays, strings, numbers, booleans, null); special cases of `JSONDecoder` for
/// `Date`, `Data` and `URL` are not needed, since payloads carry none.
enum PayloadDecoder {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var description: String { "the payload is not valid JSON (at byte \(offset))" }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer) throws -> Value {
        try Value(from: NodeDecoder(document: try JSONDocument(bytes), node: 0))
    }
}

/// A payload parsed once: its values in document order, each container followed by its content (an
/// object's members as key, value, key, value…). Strings, numbers and keys are ranges of the bytes.
final class JSONDocument {
    struct Node {
        enum Kind: UInt8 { case null, `false`, `true`, number, string, escapedString, array, object }
        let kind: Kind
        /// A leaf's bytes (a string's without its quotes).
        let start: Int32
        let end: Int32
        /// The index of the node after this one and all it contains.
        var next: Int32
        /// A container's members or elements.
        var count: Int32
    }

    let bytes: UnsafeRawBufferPointer
    /// Unchecked: written only while the document is parsed, then only read. Dynamic exclusivity checks
    /// on every read of a node took a tenth of the decoding time.
    @exclusivity(unchecked) private(set) var nodes: [Node] = []

    init(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes = bytes
        nodes.reserveCapacity(bytes.count / 12 + 4)
        var text = JSONText(bytes)
        try parse(&text, depth: 0)
        text.skipWhitespace()
        guard text.atEnd else { throw PayloadDecoder.Malformed(offset: text.index) }
    }

    private func parse(_ text: inout JSONText, depth: Int) throws {
        text.skipWhitespace()
        guard !text.atEnd, depth < 128 else { throw PayloadDecoder.Malformed(offset: text.index) }
        let start = text.index
        switch text.current {
        case UInt8(ascii: "\""):
            guard let (range, escaped) = text.string() else { throw PayloadDecoder.Malformed(offset: start) }
            append(escaped ? .escapedString : .string, range)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = text.current == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            text.index += 1
            let container = nodes.count
            append(isObject ? .object : .array, start..<start)
            var count: Int32 = 0
            if !text.consume(close) {
                repeat {
                    if isObject {
                        guard let (key, escaped) = text.string(), text.consume(UInt8(ascii: ":")) else {
                            throw PayloadDecoder.Malformed(offset: text.index)
                        }
                        append(escaped ? .escapedString : .string, key)
                    }
                    try parse(&text, depth: depth + 1)
                    count += 1
                } while text.consume(UInt8(ascii: ","))
                guard text.consume(close) else { throw PayloadDecoder.Malformed(offset: text.index) }
            }
            nodes[container].count = count
            nodes[container].next = Int32(nodes.count)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            guard text.skipValue() else { throw PayloadDecoder.Malformed(offset: start) }
            switch text.bytes[start] {
            case UInt8(ascii: "t"): append(.true, start..<text.index)
            case UInt8(ascii: "f"): append(.false, start..<text.index)
            default: append(.null, start..<text.index)
            }
        default:
            guard text.number() else { throw PayloadDecoder.Malformed(offset: start) }
            append(.number, start..<text.index)
        }
    }

    private func append(_ kind: Node.Kind, _ range: Range<Int>) {
        nodes.append(Node(kind: kind, start: Int32(range.lowerBound), end: Int32(range.upperBound), next: Int32(nodes.count + 1), count: 0))
    }

    func bytes(of node: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(nodes[node].start)..<Int(nodes[node].end)])
    }

    /// The value of `object`'s member named `key`, if it has one.
    func member(_ key: String, of object: Int) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            var child = object + 1
            for _ in 0..<nodes[object].count {
                let name = bytes(of: child)
                if name.count == wanted.count, name.elementsEqual(UnsafeRawBufferPointer(wanted)) { return child + 1 }
                child = Int(nodes[child + 1].next)
            }
            return nil
        }
    }

    /// The keys and values of an object's members, or the elements of an array (keys nil), in order.
    func children(of container: Int) -> [(key: Int?, value: Int)] {
        let isObject = nodes[container].kind == .object
        var children: [(key: Int?, value: Int)] = []
        var child = container + 1
        for _ in 0..<nodes[container].count {
            let value = isObject ? child + 1 : child
            children.append((isObject ? child : nil, value))
            child = Int(nodes[value].next)
        }
        return children
    }

    /// The coding path from the root to `node`, worked out when an error needs it.
    func codingPath(to node: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var container = 0
        while container != node {
            guard let (offset, child) = children(of: container).enumerated().first(where: { $0.element.value <= node && node < Int(nodes[$0.element.value].next) })
            else { break }
            if let key = child.key {
                path.append(PathKey(stringValue: JSONText.decodeString(bytes(of: key), escaped: nodes[key].kind == .escapedString)))
            } else {
                path.append(PathKey(intValue: offset))
            }
            container = child.value
        }
        return path
    }

    private struct PathKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }
        init(intValue: Int) {
            stringValue = "\(intValue)"
            self.intValue = intValue
        }
    }
}

/// The `Decoder` over one node of a ``JSONDocument``, and its single-value container.
struct NodeDecoder: Decoder, SingleValueDecodingContainer {
    let document: JSONDocument
    let node: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var codingPath: [any CodingKey] { document.codingPath(to: node) }

    private var kind: JSONDocument.Node.Kind { document.nodes[node].kind }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard kind == .object else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedNodes<Key>(document: document, object: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard kind == .array else { throw mismatch([Any].self) }
        return UnkeyedNodes(document: document, array: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "the payload holds another kind of value here"))
    }

    // Leaves.

    func decodeNil() -> Bool { kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard kind == .string || kind == .escapedString else { throw mismatch(String.self) }
        return JSONText.decodeString(document.bytes(of: node), escaped: kind == .escapedString)
    }

    func integer<Number: FixedWidthInteger>(_ type: Number.Type) throws -> Number {
        guard kind == .number else { throw mismatch(type) }
        var text = JSONText(document.bytes(of: node))
        let negative = text.consume(UInt8(ascii: "-"))
        guard let magnitude = text.integer(), text.atEnd, let value = Number(exactly: negative ? -magnitude : magnitude)
        else { throw mismatch(type) }
        return value
    }

    /// A number too large for a double (`1e400`) is refused, as `JSONDecoder` refuses it: read as
    /// infinity, it could not be written again.
    func decode(_ type: Double.Type) throws -> Double {
        guard kind == .number, let value = Self.double(document.bytes(of: node)), value.isFinite else { throw mismatch(Double.self) }
        return value
    }

    /// A number's value. A plain decimal of at most fifteen digits, as payloads write them, is worked out
    /// exactly: its digits and a power of ten are both exact doubles, so their quotient is correctly
    /// rounded, as the full parser's would be. Anything else goes to the full parser.
    static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        var mantissa: Int64 = 0, digits = 0, fraction = -1, index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), fraction < 0, digits > 0 {
                fraction = 0
            } else if byte &- UInt8(ascii: "0") < 10, digits < 15 {
                mantissa = mantissa * 10 + Int64(byte &- UInt8(ascii: "0"))
                digits += 1
                if fraction >= 0 { fraction += 1 }
            } else {
                return Double(String(decoding: text, as: UTF8.self))
            }
            index += 1
        }
        guard digits > 0, fraction != 0 else { return Double(String(decoding: text, as: UTF8.self)) }
        let value = Double(mantissa) / powersOfTen[max(fraction, 0)]
        return negative ? -value : value
    }

    /// 1 to 1e15, each exact.
    private static let powersOfTen: [Double] = (0...15).map { exponent in (0..<exponent).reduce(1.0) { power, _ in power * 10 } }

    func decode(_ type: Float.Type) throws -> Float {
        let value = Float(try decode(Double.self))
        guard value.isFinite else { throw mismatch(Float.self) }
        return value
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: self) }
}

/// An object's members, found by comparing key bytes.
struct KeyedNodes<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: JSONDocument
    let object: Int

    var codingPath: [any CodingKey] { document.codingPath(to: object) }

    var allKeys: [Key] {
        document.children(of: object).compactMap { child in
            child.key.flatMap { Key(stringValue: JSONText.decodeString(document.bytes(of: $0), escaped: document.nodes[$0].kind == .escapedString)) }
        }
    }

    private func value(_ key: Key) throws -> NodeDecoder {
        guard let node = document.member(key.stringValue, of: object) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the payload has no \(key.stringValue)"))
        }
        return NodeDecoder(document: document, node: node)
    }

    /// The member's value unless it is missing or null: one lookup for an optional member.
    private func present(_ key: Key) -> NodeDecoder? {
        guard let node = document.member(key.stringValue, of: object), document.nodes[node].kind != .null else { return nil }
        return NodeDecoder(document: document, node: node)
    }

    func contains(_ key: Key) -> Bool { document.member(key.stringValue, of: object) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try value(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).integer(type) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { try Value(from: value(key)) }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.integer(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.decode(type) }
    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try present(key).map { try Value(from: $0) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try value(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try value(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { NodeDecoder(document: document, node: object) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try value(key) }
}

/// An array's elements, in order.
struct UnkeyedNodes: UnkeyedDecodingContainer {
    let document: JSONDocument
    let array: Int
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var element: Int

    init(document: JSONDocument, array: Int) {
        self.document = document
        self.array = array
        element = array + 1
    }

    var codingPath: [any CodingKey] { document.codingPath(to: array) }
    var count: Int? { Int(document.nodes[array].count) }
    var isAtEnd: Bool { currentIndex >= count! }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer {
            currentIndex += 1
            element = Int(document.nodes[element].next)
        }
        return NodeDecoder(document: document, node: element)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, document.nodes[element].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: next()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
