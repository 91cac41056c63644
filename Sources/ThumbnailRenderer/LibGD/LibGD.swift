import CGD

/// libgd, opened on first use (see `cgd.h` for why it is not linked), with its process-wide setup.
enum LibGD {
    /// libgd's functions. Reading this opens libgd, silences its messages to stderr (its failures come
    /// back as typed errors), and makes the font cache before threads could race to make it.
    static let gd: CGDFunctions = {
        guard let functions = cgd_functions()?.pointee else {
            let reason = cgd_error().map { String(cString: $0) } ?? "unknown"
            preconditionFailure("libgd cannot be opened (\(reason)). Install Debian's libgd3: tools/install-deps.")
        }
        functions.setErrorMethod!({ _, _, _ in })
        _ = functions.fontCacheSetup!()
        return functions
    }()
}
