import ArgumentParser
import Episodic

struct FontCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "font", abstract: "Import, list and remove the fonts thumbnails can be drawn in.",
        discussion: "Thumbnail settings name a font with --font NAME; without one, thumbnails use the default bold font (DejaVu Sans Bold).",
        subcommands: [Import.self, List.self, Remove.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a TrueType (.ttf) or OpenType (.otf) font file under a name.",
            discussion: """
                The name defaults to the file's name without its extension. Names are unique, ignoring case and \
                surrounding spaces. A file that is not a font is refused, and nothing is written.

                Examples:
                  episodic font import Inter-Bold.ttf                    named Inter-Bold
                  episodic font import Inter-Bold.ttf --name Inter
                  episodic font import - --name Inter < Inter-Bold.ttf
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The font file, or - for standard input (with --name).") var file: String
        @Option(help: ArgumentHelp("The name thumbnail settings will call it by.", valueName: "name")) var name: String?

        func validate() throws {
            if file == "-" && name == nil { throw ValidationError("Give --name for a font read from standard input.") }
        }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let bytes = try Files.read(file)
                let submission: Submission
                do {
                    submission = try .importFont(bytes, name: name ?? Submission.fontName(forFile: file))
                } catch {
                    throw InputError(path: file, reason: "\(error)")
                }
                try session.submit(submission)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the imported fonts, by name.",
            discussion: """
                Examples:
                  episodic font list
                  episodic font list --json
                """)
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Session.run(global) { session in
                let fonts = try session.library().fonts()
                if global.json { return session.printJSON(fonts.map(FontRecord.init)) }
                var table = Table([.init(title: "NAME", flexible: true), .init(title: "SIZE", alignRight: true), .init(title: "SHA256")])
                for font in fonts {
                    table.append([font.name, "\(font.font.byteCount)", String(font.font.sha256.prefix(12))])
                }
                session.printTable(table, empty: "No fonts imported. Import one with `episodic font import <file> --name <name>`.")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an imported font.",
            discussion: """
                Refused while episodes' thumbnail settings name it (they are listed). With --force it goes anyway: \
                the settings keep the name, and rendering with them is refused until a font of that name is imported \
                again, or another font is chosen.

                Examples:
                  episodic font remove Inter
                  episodic font remove Inter --force   even though episodes use it
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The font's name (case does not count).") var name: String
        @Flag(help: "Remove it even though episodes use it.") var force = false

        func run() throws {
            try Session.run(global, actor: who) { session in try session.submit(.removeFont(named: name, force: force)) }
        }
    }
}

/// A font as `font list --json` prints it.
struct FontRecord: Encodable {
    var name: String
    var font: BlobRef

    init(_ font: ImportedFont) {
        name = font.name
        self.font = font.font
    }
}
