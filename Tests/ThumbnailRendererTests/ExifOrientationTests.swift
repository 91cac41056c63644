import Testing

@testable import ThumbnailRenderer

/// Reading the Orientation tag from an APP1 segment: both byte orders, and whatever damage a file
/// carries, without a crash: what cannot be read is upright.
@Suite("Exif orientation")
struct ExifOrientationTests {
    @Test("each of the eight orientations reads back, in Motorola and Intel byte order", arguments: [true, false])
    func bothByteOrders(bigEndian: Bool) {
        for value in 1...8 {
            // Given an Exif payload holding the orientation after another entry
            let payload = ExifPhotos.exif(orientation: value, bigEndian: bigEndian)

            // When it is read, then the orientation comes back
            #expect(ExifOrientation(app1: payload[...])?.rawValue == value, "\(value)")
        }
    }

    @Test("a directory without the tag, or with a value outside 1 to 8, or of another type, is upright")
    func missingOrOutOfRange() {
        #expect(ExifOrientation(app1: ExifPhotos.exif(orientation: nil, bigEndian: true)[...]) == .up)
        #expect(ExifOrientation(app1: ExifPhotos.exif(orientation: 0, bigEndian: false)[...]) == .up)
        #expect(ExifOrientation(app1: ExifPhotos.exif(orientation: 9, bigEndian: true)[...]) == .up)
        // The orientation entry's type (SHORT, 3) made a LONG (4)
        var long = ExifPhotos.exif(orientation: 6, bigEndian: true)
        long[6 + 8 + 2 + 12 + 3] = 4
        #expect(ExifOrientation(app1: long[...]) == .up)
    }

    @Test("an APP1 segment that is not Exif (XMP) is not read as one")
    func notExif() {
        #expect(ExifOrientation(app1: Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)[...]) == nil)
        #expect(ExifOrientation(app1: Array("Exi".utf8)[...]) == nil)
    }

    @Test("an Exif payload cut short anywhere is upright; only the whole one says 6")
    func cutShort() {
        // Given a payload saying 6, in each byte order
        for bigEndian in [true, false] {
            let payload = ExifPhotos.exif(orientation: 6, bigEndian: bigEndian)

            // When it is cut after each byte, then every cut reads as upright, and the whole as 6
            for length in 6..<payload.count - 4 {
                #expect(ExifOrientation(app1: payload.prefix(length)) == .up, "\(length) bytes")
            }
            #expect(ExifOrientation(app1: payload[...]) == .turnedQuarter)
        }
    }

    @Test("offsets and counts pointing past the end, or a wrong byte order or magic number, are upright; no byte crashes it")
    func damaged() {
        let payload = ExifPhotos.exif(orientation: 8, bigEndian: true)
        func changed(_ offset: Int, to bytes: [UInt8]) -> ArraySlice<UInt8> {
            var damaged = payload
            damaged.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return damaged[...]
        }
        // The directory's offset past the end, or at its largest
        #expect(ExifOrientation(app1: changed(6 + 4, to: [0x00, 0x00, 0x10, 0x00])) == .up)
        #expect(ExifOrientation(app1: changed(6 + 4, to: [0xFF, 0xFF, 0xFF, 0xFF])) == .up)
        // 65,535 entries, where there is one, and it is not the orientation
        var noTag = ExifPhotos.exif(orientation: nil, bigEndian: true)
        noTag.replaceSubrange(6 + 8..<6 + 10, with: [0xFF, 0xFF])
        #expect(ExifOrientation(app1: noTag[...]) == .up)
        // Neither "MM" nor "II"; or not 42 after it
        #expect(ExifOrientation(app1: changed(6, to: Array("MI".utf8))) == .up)
        #expect(ExifOrientation(app1: changed(6 + 2, to: [0x00, 0x2B])) == .up)
        // Any one byte after the signature set to 0, 1, 0x7F or 0xFF: read without a crash
        for offset in 6..<payload.count {
            for byte: UInt8 in [0x00, 0x01, 0x7F, 0xFF] {
                #expect(ExifOrientation(app1: changed(offset, to: [byte])) != nil)
            }
        }
    }
}
