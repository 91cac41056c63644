/// An argument as a POSIX shell reads it back: as it is when it holds only characters no shell treats
/// specially, otherwise between single quotes (a quote inside written `'"'"'`, without a backslash,
/// which printing for a terminal would double). So that a command a message suggests can be pasted as
/// it is, whatever the podcast's name.
enum ShellWord {
    static func quoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_./:=@%+,".unicodeScalars.contains(scalar))
        }
        return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'"'"'"#) + "'"
    }
}
