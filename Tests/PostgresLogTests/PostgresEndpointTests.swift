import Foundation
@testable import PostgresLog
import Testing
import TestSupport

/// Connection URLs as libpq reads them, and where a password comes from: never from what is kept.
@Suite("PostgreSQL connection URLs")
struct PostgresEndpointTests {
    @Test("a URL's parts, and its description without the password")
    func parts() throws {
        let endpoint = try PostgresEndpoint(url: "postgresql://editor:s3cret@db.example.com:6543/podcasts?sslmode=require")
        #expect(endpoint.transport == .tcp(host: "db.example.com", port: 6543))
        #expect(endpoint.user == "editor")
        #expect(endpoint.database == "podcasts")
        #expect(endpoint.tls == .require)
        #expect("\(endpoint)" == "postgres://editor@db.example.com:6543/podcasts?sslmode=require")
        #expect(try PostgresEndpoint(url: "\(endpoint)").description == "\(endpoint)", "the description reads back as the same place")

        let socket = try PostgresEndpoint(url: "postgres://ana@/shows?host=/run/postgresql")
        #expect(socket.transport == .unixSocket(folder: "/run/postgresql", port: 5432))
        #expect(socket.tls == .disable, "no TLS over a Unix socket unless asked")
        #expect(try PostgresEndpoint(url: "postgres://ana@localhost/shows").tls == .prefer, "libpq's default over TCP")
    }

    @Test("a URL that cannot be used is refused with what is wrong", arguments: [
        "mysql://db/x", "postgres://db:99999/x", "postgres://db/x?sslmode=always", "postgres://db/x?options=-c%20x", "not a url",
    ])
    func refused(_ url: String) {
        #expect(throws: PostgresEndpoint.Invalid.self) { try PostgresEndpoint(url: url) }
    }

    @Test("the password: the URL's, else PGPASSWORD, else the first matching line of the password file")
    func password() throws {
        let folder = TemporaryFolder("episodic-pgpass")
        let file = folder("pgpass")
        try """
            # comment
            other.example.com:5432:*:editor:wrong
            db.example.com:5432:podcasts:editor:pa\\:ss\\\\word
            *:*:*:*:fallback
            """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(chmod(file, 0o600) == 0)
        let endpoint = try PostgresEndpoint(url: "postgres://editor@db.example.com/podcasts")
        #expect(endpoint.password(environment: ["PGPASSFILE": file]) == "pa:ss\\word")
        #expect(endpoint.password(environment: ["PGPASSFILE": file, "PGPASSWORD": "from-env"]) == "from-env")
        #expect(try PostgresEndpoint(url: "postgres://editor:typed@db.example.com/podcasts").password(environment: ["PGPASSWORD": "x"]) == "typed")
        #expect(try PostgresEndpoint(url: "postgres://cy@elsewhere/db").password(environment: ["PGPASSFILE": file]) == "fallback")
        #expect(endpoint.password(environment: ["PGPASSFILE": folder("none")]) == nil)
        #expect(endpoint.passwordFileProblem(environment: ["PGPASSFILE": file]) == nil)
    }

    @Test("a password file the group or others may read, or that is not a plain file, is not read, as libpq refuses it", arguments: [0o640, 0o604, 0o660, 0o644])
    func passwordFileOpenToOthers(mode: Int) throws {
        // Given a password file with the right password, open to more than its owner
        let folder = TemporaryFolder("episodic-pgpass")
        let file = folder("pgpass")
        try "db.example.com:5432:podcasts:editor:secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(chmod(file, mode_t(mode)) == 0)
        let endpoint = try PostgresEndpoint(url: "postgres://editor@db.example.com/podcasts")

        // Then it gives no password, and what is wrong says how to make it usable
        #expect(endpoint.password(environment: ["PGPASSFILE": file]) == nil)
        let problem = try #require(endpoint.passwordFileProblem(environment: ["PGPASSFILE": file]))
        #expect(problem.contains("chmod 600 \(file)"))
        // A password from PGPASSWORD does not need the file, so nothing is said about it
        #expect(endpoint.passwordFileProblem(environment: ["PGPASSFILE": file, "PGPASSWORD": "x"]) == nil)

        // And a folder in its place is not read either
        #expect(mkdir(folder("dir"), 0o700) == 0)
        #expect(endpoint.password(environment: ["PGPASSFILE": folder("dir")]) == nil)
        #expect(endpoint.passwordFileProblem(environment: ["PGPASSFILE": folder("dir")])?.contains("not a plain file") == true)
    }
}
