import CGD

/// libgd's process-wide setup, done once before any image is touched.
enum LibGD {
    /// Read it before calling libgd: its failures come back as typed errors, so its own messages to
    /// stderr are silenced; and the font cache is made here, before threads could race to make it.
    static let ready: Void = {
        gdSetErrorMethod { _, _, _ in }
        _ = gdFontCacheSetup()
    }()
}
