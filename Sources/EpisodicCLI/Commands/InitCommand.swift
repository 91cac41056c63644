import ArgumentParser
import Episodic
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a library (or check that the one there can be opened).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Session.run(global) { session in
            let path = global.libraryPath
            let existed = FileManager.default.fileExists(atPath: path + "/FORMAT")
            try Library.create(at: path)
            if global.json {
                session.printJSON(InitRecord(library: path, created: !existed))
            } else {
                Terminal.say(existed ? "A library is already at \(path); nothing changed." : "Created a library at \(path).")
            }
        }
    }
}

private struct InitRecord: Encodable {
    var library: String
    var created: Bool
}
