import CPNG

/// libpng, opened on first use (see `cpng.h` for why it is not linked).
enum LibPNG {
    /// Reading this opens libpng, once.
    static let opened: Void = {
        if let failure = cpng_open() {
            preconditionFailure(
                "libpng cannot be opened (\(String(cString: failure))). Install Debian's libpng16-16: tools/install-deps.")
        }
    }()
}
