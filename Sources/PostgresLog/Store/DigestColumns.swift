import Foundation
import PostgresNIO

/// The generated `digest` columns of schema version 3 (0003-row-digests.sql) as that file makes them:
/// what a machine holds the server's catalog to before it trusts the digests, since a table's owner
/// could drop a column's generation, or change the function behind it, and keep old digests beside
/// changed rows. Read from the file this build applies, so that the check and the DDL cannot differ.
struct DigestColumns {
    /// Each digest column's generation expression, without spaces or quotes: `table: expression`.
    let expressions: [String: String]
    /// Each digest function's body, as PostgreSQL keeps it (`prosrc`): `function: body`.
    let bodies: [String: String]

    /// The columns and functions `sql` creates.
    init(sql: String) {
        var expressions: [String: String] = [:], bodies: [String: String] = [:]
        for match in sql.matches(of: #/CREATE FUNCTION (\w+)\([^$]*?AS \$\$(.*?)\$\$;/#.dotMatchesNewlines()) {
            bodies[String(match.1)] = String(match.2)
        }
        for match in sql.matches(of: #/ALTER TABLE (\w+) ADD COLUMN digest bytea GENERATED ALWAYS AS \((.*?)\) STORED;/#.dotMatchesNewlines()) {
            expressions[String(match.1)] = Self.normalized(String(match.2))
        }
        self.expressions = expressions
        self.bodies = bodies
    }

    /// The columns and functions of this build's schema version 3.
    static let expected = DigestColumns(sql: PostgresSchema.migrations.first { $0.version == 3 }?.sql ?? "")

    /// An expression without spaces, quotes or the schema's name: as written, or as PostgreSQL prints it back.
    static func normalized(_ expression: String, schema: String? = nil) -> String {
        var text = expression.filter { !$0.isWhitespace && $0 != "\"" }
        if let schema { text = text.replacing("\(schema).", with: "") }
        return text
    }

    /// What differs between the server's catalog and these columns, in words; nil when nothing does.
    /// One query: each digest column, whether it is generated and by what, and each function's body.
    func difference(in schema: String, on session: PostgresSession) throws -> String? {
        guard !expressions.isEmpty, !bodies.isEmpty else { return "this build's schema files are missing" }
        let rows = try session.query(PostgresQuery(unsafeSQL: """
            SELECT 'column', c.relname, a.attgenerated::text, pg_get_expr(d.adbin, d.adrelid)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'digest' AND NOT a.attisdropped
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE n.nspname = '\(schema)' AND c.relname IN ('events', 'commits')
            UNION ALL
            SELECT 'function', p.proname, p.provolatile::text, p.prosrc
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = '\(schema)' AND p.proname IN ('event_digest', 'commit_digest')
            """))
        var columns: [String: (generated: String, expression: String?)] = [:], functions: [String: [String]] = [:]
        for row in rows {
            let (kind, name, flag, text) = try row.decode((String, String, String, String?).self)
            if kind == "column" { columns[name] = (flag, text) } else { functions[name, default: []].append(text ?? "") }
        }
        for (table, expression) in expressions.sorted(by: { $0.key < $1.key }) {
            guard let column = columns[table] else { return "\(table).digest is gone" }
            guard column.generated == "s" else { return "\(table).digest is no longer generated" }
            guard column.expression.map({ Self.normalized($0, schema: schema) }) == expression else {
                return "\(table).digest is generated otherwise"
            }
        }
        for (function, body) in bodies.sorted(by: { $0.key < $1.key }) where functions[function] != [body] {
            return functions[function] == nil ? "the function \(function) is gone" : "the function \(function) was changed"
        }
        return nil
    }
}
