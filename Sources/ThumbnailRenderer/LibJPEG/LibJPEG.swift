import CJPEG

/// libjpeg, opened on first use (see `cjpeg.h` for why it is not linked).
enum LibJPEG {
    /// Reading this opens libjpeg, once.
    static let opened: Void = {
        if let failure = cjpeg_open() {
            preconditionFailure(
                "libjpeg cannot be opened (\(String(cString: failure))). Install Debian's libjpeg62-turbo: tools/install-deps.")
        }
    }()
}
