import Foundation
import TestSupport
import Testing

@testable import Episodic

/// `schemas/commands/` and the script parser describe the same commands, checked both ways: every
/// command the parser reads has a schema with exactly its fields, required and optional, and every
/// schema is of a command the parser reads. The thumbnail settings' schema names exactly the settings
/// a patch takes.
@Suite("Command schemas and the parser")
struct CommandSchemaShapeTests {
    static let folder = RepositoryFiles.path("schemas/commands")

    static func schema(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static var schemaFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".schema.json") && $0 != "definitions.schema.json" }.sorted()
    }

    @Test("each command the parser reads has a schema with its fields, and the schema requires what it requires",
          arguments: ScriptLine.shapes.keys.sorted())
    func parserToSchema(command: String) throws {
        let shape = try #require(ScriptLine.shapes[command])
        let schema = try Self.schema(command + ".schema.json")
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(["command"] + shape.required + shape.optional))
        #expect(Set(schema["required"] as? [String] ?? []) == Set(["command"] + shape.required))
        #expect(schema["additionalProperties"] as? Bool == false)
    }

    @Test("every schema is of a command the parser reads")
    func schemaToParser() {
        let commands = Set(Self.schemaFiles.map { String($0.dropLast(".schema.json".count)) })
        #expect(!commands.isEmpty)
        #expect(commands == Set(ScriptLine.shapes.keys))
    }

    @Test("the settings' schema names exactly the settings a patch takes")
    func settings() throws {
        let definitions = try #require(try Self.schema("definitions.schema.json")["$defs"] as? [String: Any])
        let settings = try #require(definitions["ThumbnailSettings"] as? [String: Any])
        let properties = try #require(settings["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(ThumbnailSettingsPatch.keys))
    }
}
