import Foundation

/// What an image file's header says: its MIME type and pixel size. Reads PNG and JPEG only.
public struct VSImageInfo: Equatable, Sendable {
    public let mimeType: String
    public let width: Int64
    public let height: Int64

    /// Reads the header of `data`; nil when it is not a PNG or JPEG whose size can be found.
    public init?(data: Data) {
        let bytes = [UInt8](data.prefix(Self.maximumHeaderScan))
        if let size = Self.pngSize(bytes) {
            self.init(mimeType: "image/png", size: size)
        } else if let size = Self.jpegSize(bytes) {
            self.init(mimeType: "image/jpeg", size: size)
        } else {
            return nil
        }
    }

    private init(mimeType: String, size: (width: Int64, height: Int64)) {
        self.mimeType = mimeType
        self.width = size.width
        self.height = size.height
    }

    /// The largest width or height a picture may have, in pixels: what the sync server accepts.
    public static let maximumPixelSize: Int64 = 1_000_000

    /// JPEG metadata (EXIF thumbnails) can push the frame header far in; 1 MB is plenty.
    static let maximumHeaderScan = 1 << 20

    /// The file name extension for the MIME type.
    public var fileExtension: String { mimeType == "image/png" ? "png" : "jpg" }

    // MARK: PNG

    /// PNG: an 8-byte signature, then the IHDR chunk whose data starts with width and height
    /// as big-endian 32-bit integers.
    private static func pngSize(_ bytes: [UInt8]) -> (width: Int64, height: Int64)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let width = bigEndian(bytes, at: 16, count: 4)
        let height = bigEndian(bytes, at: 20, count: 4)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    // MARK: JPEG

    /// JPEG: after the SOI marker, walk the segments until a start-of-frame (SOF0…SOF15 except
    /// DHT, JPG and DAC), whose data holds precision, height and width.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int64, height: Int64)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }                 // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }          // end of image or scan before a frame
            let length = Int(bigEndian(bytes, at: index + 2, count: 2))
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard index + 9 <= bytes.count else { return nil }
                let height = bigEndian(bytes, at: index + 5, count: 2)
                let width = bigEndian(bytes, at: index + 7, count: 2)
                guard width > 0, height > 0 else { return nil }
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int64($1) }
    }
}
