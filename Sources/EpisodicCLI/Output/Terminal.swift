import Foundation

/// What the process writes to, and how wide it is.
enum Terminal {
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Columns to fit tables in: the terminal's width, else `$COLUMNS`, else nil (no limit: output to a
    /// file or a pipe is never cut).
    static var width: Int? {
        var size = winsize()
        if stdoutIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return Environment.value("COLUMNS").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Columns on stderr's terminal, where progress bars are drawn (80 when it cannot say).
    static var errorWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Prints one line for people on stdout; what it quotes was escaped when it was made.
    static func say(_ line: TerminalText) {
        print(line.description)
    }

    /// Prints a message for people on stderr, escaped; its own line breaks are kept.
    static func printError(_ message: String) {
        printError(line: TerminalText(message, keepingLineBreaks: true))
    }

    /// Prints a line for people on stderr; what it quotes was escaped when it was made.
    static func printError(line: TerminalText) {
        FileHandle.standardError.write(Data((line.description + "\n").utf8))
    }

    /// Prints JSON for scripts on stderr, exact: JSON's own escaping keeps it safe.
    static func printJSONError(_ json: String) {
        FileHandle.standardError.write(Data((json + "\n").utf8))
    }
}
