import ArgumentParser

/// The options every command shares (`--library`, `--json`, `--quiet`, `--verbose`, `--actor`, `--lock-timeout`),
/// given before the subcommand, as `git -C` and `kubectl --context` are: `episodic --library X podcast
/// list`. ArgumentParser reads a subcommand's options only after its name, so they are moved there,
/// in their order, before parsing; after the subcommand they work as they always did.
enum LeadingOptions {
    /// Options that take a value, and flags.
    static let valued: Set<String> = ["--library", "--actor", "--lock-timeout"]
    static let flags: Set<String> = ["--json", "--quiet", "-q", "--verbose", "-v", "--utc"]

    /// `arguments` (without the program's name) with leading shared options moved after the
    /// subcommand path; unchanged when none lead, or when nothing follows them.
    static func rewritten(_ arguments: [String], root: ParsableCommand.Type) -> [String] {
        let (leading, index) = options(leading: arguments)
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        let path = CommandPath.walk(arguments[index...], from: root).length
        return Array(arguments[index..<index + path]) + leading + arguments[(index + path)...]
    }

    /// For `--version` among shared options only (`episodic --library PATH --version`): the library
    /// given, or nil for the default, wrapped so that "none given" can be told from "not asked".
    static func versionRequest(_ arguments: [String]) -> String?? {
        guard arguments.contains("--version") else { return nil }
        let rest = arguments.filter { $0 != "--version" }
        let (given, end) = options(leading: rest)
        guard end == rest.count else { return nil }
        var library: String?
        for (index, option) in given.enumerated() {
            if option.hasPrefix("--library=") { library = String(option.dropFirst("--library=".count)) }
            if option == "--library", index + 1 < given.count { library = given[index + 1] }
        }
        return .some(library)
    }

    /// The shared options at the start of `arguments`, as given, and the index of the first argument
    /// that is not one.
    static func options(leading arguments: [String]) -> (options: [String], end: Int) {
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if flags.contains(argument) || (valued.contains(String(argument.prefix { $0 != "=" })) && argument.contains("=")) {
                options.append(argument)
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.count {
                options += arguments[index...index + 1]
                index += 2
            } else {
                break
            }
        }
        return (options, index)
    }
}
