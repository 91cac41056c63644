import CoreValues

/// Encodes values as the log's payloads are written: JSON on one line, each object's keys sorted by
/// their UTF-8 bytes, `/` unescaped. Byte for byte what Foundation's `JSONEncoder` writes on Linux with
/// `.sortedKeys` and `.withoutEscapingSlashes` (tests compare the two), about twice as fast
/// (`episodic-bench codec`), since read models write thousands of these values per replay.
///
/// It writes into one buffer as it walks the value, and puts an object's members in key order where
/// they stand when the object ends. It supports what payloads use: keyed, unkeyed and single-value
/// containers. Asking for a nested container or a super encoder is a programming error (it traps), and
/// `JSONEncoder`'s special cases for `Date`, `Data`, `URL` and `Decimal` are not made, since payloads
/// carry none of them.
enum PayloadEncoder {
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let sink = JSONSink()
        try sink.write(value)
        return sink.bytes
    }
}

/// The buffer of one encoding, and the containers open in it.
///
/// Allocation is what such an encoder spends its time on, so the members of every open object share one
/// stack, and an object whose members are out of order is rewritten through one scratch buffer.
final class JSONSink {
    // Unchecked: only the sink's own methods touch these, one call at a time, and dynamic exclusivity
    // checks cost a tenth of the encoding time.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    @exclusivity(unchecked) private var open: [Container] = []
    /// The members written so far of every open object, innermost last.
    @exclusivity(unchecked) private var members: [Member] = []
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    private struct Container {
        let isObject: Bool
        /// Where the container's content begins, just after its `{` or `[`.
        let start: Int
        /// Where an object's members begin in ``JSONSink/members``.
        let firstMember: Int
        /// An array's elements so far.
        var count = 0
    }

    /// An object's member: its key, and where it stands in the buffer, from the key's opening quote to
    /// the end of its value.
    private struct Member {
        let key: String
        /// The key's first eight bytes, big-endian, zero-padded: most keys differ in them.
        let prefix: UInt64
        let range: Range<Int>

        init(key: String, range: Range<Int>) {
            var key = key
            prefix = key.withUTF8 { utf8 in utf8.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (56 - 8 * $1.offset) } }
            self.key = key
            self.range = range
        }

        func precedes(_ other: Member) -> Bool {
            if prefix != other.prefix { return prefix < other.prefix }
            var a = key, b = other.key
            return a.withUTF8 { a in b.withUTF8 { b in a.lexicographicallyPrecedes(b) } }
        }
    }

    /// How many containers were open when the value being written began: one more is its own.
    private var valueDepth = 0

    init() {
        bytes.reserveCapacity(256)
        open.reserveCapacity(8)
        members.reserveCapacity(32)
    }

    func write<Value: Encodable>(_ value: Value) throws {
        let start = bytes.count
        let outer = valueDepth
        valueDepth = open.count
        defer { valueDepth = outer }
        try value.encode(to: SinkEncoder(sink: self))
        if open.count > valueDepth {
            close()
        } else if bytes.count == start {
            append("{}")  // A value that encodes nothing is an empty object, as in JSONEncoder.
        }
    }

    // MARK: Containers

    /// Opens the value's object, or returns to it if the value asks for its keyed container again.
    func openObject() {
        if open.count > valueDepth, open[open.count - 1].isObject { return }
        bytes.append(UInt8(ascii: "{"))
        open.append(Container(isObject: true, start: bytes.count, firstMember: members.count))
    }

    func openArray() {
        bytes.append(UInt8(ascii: "["))
        open.append(Container(isObject: false, start: bytes.count, firstMember: members.count))
    }

    func writeMember<Value: Encodable>(_ key: String, _ value: Value) throws {
        try writeMember(key) { try write(value) }
    }

    func writeMember(_ key: String, _ writeValue: () throws -> Void) rethrows {
        if members.count > open[open.count - 1].firstMember { bytes.append(UInt8(ascii: ",")) }
        let start = bytes.count
        JSONText.appendString(key, to: &bytes, shortBackspaceAndFormFeed: true)
        bytes.append(UInt8(ascii: ":"))
        try writeValue()
        members.append(Member(key: key, range: start..<bytes.count))
    }

    func writeElement(_ writeValue: () throws -> Void) rethrows {
        let array = open.count - 1
        if open[array].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[array].count += 1
        try writeValue()
    }

    /// Closes the innermost container; an object's members are put in key order first.
    private func close() {
        let container = open.removeLast()
        guard container.isObject else { return bytes.append(UInt8(ascii: "]")) }
        let first = container.firstMember
        if sortMembers(from: first) {
            let start = container.start
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[start...])
            bytes.removeSubrange(start...)
            for index in members.indices[first...] {
                if index > first { bytes.append(UInt8(ascii: ",")) }
                let range = members[index].range
                bytes.append(contentsOf: scratch[(range.lowerBound - start)..<(range.upperBound - start)])
            }
        }
        members.removeSubrange(first...)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Sorts the innermost object's members by key, in the bytes' order (as `JSONEncoder` sorts them on
    /// Linux); true when they were out of order. An insertion sort: objects have a dozen members at most.
    private func sortMembers(from first: Int) -> Bool {
        var moved = false
        for index in (first + 1)..<max(first + 1, members.count) {
            let member = members[index]
            var slot = index
            while slot > first, member.precedes(members[slot - 1]) {
                members[slot] = members[slot - 1]
                slot -= 1
            }
            if slot != index {
                members[slot] = member
                moved = true
            }
        }
        return moved
    }

    // MARK: Leaves

    func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func writeNull() { append("null") }
    func writeBool(_ value: Bool) { value ? append("true") : append("false") }
    func writeString(_ value: String) { JSONText.appendString(value, to: &bytes, shortBackspaceAndFormFeed: true) }
    func writeInteger<Integer: BinaryInteger>(_ value: Integer) { bytes.append(contentsOf: value.description.utf8) }

    /// As `JSONEncoder`: the shortest text that reads back as the same value, without a trailing `.0`.
    func writeFloat<Number: BinaryFloatingPoint & CustomStringConvertible>(_ value: Number) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) cannot be written in JSON"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    static func unsupported(_ what: String) -> String { "PayloadEncoder does not support \(what): payloads do not use them" }
}

/// The `Encoder` handed to each value; it holds nothing but the sink, so it needs no allocation.
private struct SinkEncoder: Encoder, SingleValueEncodingContainer {
    let sink: JSONSink
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        sink.openObject()
        return KeyedEncodingContainer(SinkKeyedContainer<Key>(sink: sink))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.openArray()
        return SinkUnkeyedContainer(sink: sink)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    mutating func encodeNil() { sink.writeNull() }
    mutating func encode(_ value: Bool) { sink.writeBool(value) }
    mutating func encode(_ value: String) { sink.writeString(value) }
    mutating func encode(_ value: Double) throws { try sink.writeFloat(value) }
    mutating func encode(_ value: Float) throws { try sink.writeFloat(value) }
    mutating func encode(_ value: Int) { sink.writeInteger(value) }
    mutating func encode(_ value: Int8) { sink.writeInteger(value) }
    mutating func encode(_ value: Int16) { sink.writeInteger(value) }
    mutating func encode(_ value: Int32) { sink.writeInteger(value) }
    mutating func encode(_ value: Int64) { sink.writeInteger(value) }
    mutating func encode(_ value: UInt) { sink.writeInteger(value) }
    mutating func encode(_ value: UInt8) { sink.writeInteger(value) }
    mutating func encode(_ value: UInt16) { sink.writeInteger(value) }
    mutating func encode(_ value: UInt32) { sink.writeInteger(value) }
    mutating func encode(_ value: UInt64) { sink.writeInteger(value) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try sink.write(value) }
}

private struct SinkKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: JSONSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try sink.writeMember(key.stringValue) { try sink.writeFloat(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try sink.writeMember(key.stringValue) { try sink.writeFloat(value) } }
    mutating func encode(_ value: Int, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) { sink.writeMember(key.stringValue) { sink.writeInteger(value) } }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try sink.writeMember(key.stringValue, value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure(JSONSink.unsupported("nested containers"))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure(JSONSink.unsupported("nested containers"))
    }
    mutating func superEncoder() -> any Encoder { preconditionFailure(JSONSink.unsupported("super encoders")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure(JSONSink.unsupported("super encoders")) }
}

private struct SinkUnkeyedContainer: UnkeyedEncodingContainer {
    let sink: JSONSink
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(sink: JSONSink) { self.sink = sink }

    mutating func encodeNil() { element { $0.writeNull() } }
    mutating func encode(_ value: Bool) { element { $0.writeBool(value) } }
    mutating func encode(_ value: String) { element { $0.writeString(value) } }
    mutating func encode(_ value: Double) throws { try element { try $0.writeFloat(value) } }
    mutating func encode(_ value: Float) throws { try element { try $0.writeFloat(value) } }
    mutating func encode(_ value: Int) { element { $0.writeInteger(value) } }
    mutating func encode(_ value: Int64) { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt64) { element { $0.writeInteger(value) } }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try element { try $0.write(value) } }

    private mutating func element(_ write: (JSONSink) throws -> Void) rethrows {
        count += 1
        let sink = sink
        try sink.writeElement { try write(sink) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure(JSONSink.unsupported("nested containers"))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure(JSONSink.unsupported("nested containers"))
    }
    mutating func superEncoder() -> any Encoder { preconditionFailure(JSONSink.unsupported("super encoders")) }
}
