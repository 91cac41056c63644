import CoreValues
import Foundation
import PostgresNIO

/// Where a shared library's server is, from a standard PostgreSQL connection URL:
/// `postgres://user@host:port/database?sslmode=require`, or with `?host=/run/postgresql` for a Unix
/// socket. The password is never part of what is kept: it comes from the URL as typed, `PGPASSWORD`,
/// or the password file (`PGPASSFILE`, else `.pgpass` in `$HOME` or the user's home), in that order, and
/// ``description`` leaves it out.
public struct PostgresEndpoint: Sendable, Equatable, CustomStringConvertible {
    public enum Transport: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unixSocket(folder: String, port: Int)
    }

    /// How TLS is used, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Equatable {
        /// Never.
        case disable
        /// When the server offers it (libpq's default over TCP).
        case prefer
        /// Always, without checking the server's certificate.
        case require
        /// Always, checking the certificate against the system's authorities.
        case verifyCA = "verify-ca"
        /// Always, checking the certificate and that it names the host.
        case verifyFull = "verify-full"
    }

    public var transport: Transport
    public var user: String
    public var database: String
    public var tls: TLSMode
    /// The password typed into the URL, if any: used, never stored or printed.
    var typedPassword: String?

    /// What the URL is wrong about.
    public struct Invalid: Error, Equatable, ClassifiedError, CustomStringConvertible {
        public var reason: String
        public var kind: ErrorKind { .usage }
        public var description: String {
            "not a PostgreSQL connection URL: \(reason). Write it as postgres://user@host:5432/database"
                + " (with ?sslmode=require for TLS, or ?host=/run/postgresql for a Unix socket)."
        }
    }

    public init(url text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw Invalid(reason: "it must start with postgres:// or postgresql://") }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known: Set = ["sslmode", "host", "port", "user", "dbname", "password", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw Invalid(reason: "the parameter \(unknown) is not one Episodic understands")
        }
        let port: Int
        if let given = components.port ?? query["port"].flatMap(Int.init) {
            guard (1...65535).contains(given) else { throw Invalid(reason: "port \(given) is out of range") }
            port = given
        } else {
            guard query["port"] == nil else { throw Invalid(reason: "the port must be a number") }
            port = 5432
        }
        let host = query["host"] ?? components.host.flatMap { $0.isEmpty ? nil : $0 }
        let isSocket = host?.hasPrefix("/") ?? false
        if let host, isSocket {
            transport = .unixSocket(folder: host, port: port)
        } else {
            transport = .tcp(host: host ?? "localhost", port: port)
        }
        let environment = ProcessInfo.processInfo.environment
        user = query["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"] ?? NSUserName()
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = query["dbname"] ?? (path.isEmpty ? user : path)
        guard let mode = TLSMode(rawValue: query["sslmode"] ?? (isSocket ? "disable" : "prefer")) else {
            throw Invalid(reason: "sslmode must be disable, prefer, require, verify-ca or verify-full")
        }
        tls = mode
        typedPassword = query["password"] ?? components.password
    }

    var isUnixSocket: Bool { if case .unixSocket = transport { true } else { false } }

    /// The URL without its password: what a library's folder keeps and what messages show.
    public var description: String {
        var text = "postgres://\(Self.escape(user))@"
        var parameters: [String] = []
        switch transport {
        case let .tcp(host, port):
            text += (host.contains(":") ? "[\(host)]" : host) + (port == 5432 ? "" : ":\(port)")
        case let .unixSocket(folder, port):
            parameters.append("host=\(folder)")
            if port != 5432 { parameters.append("port=\(port)") }
        }
        text += "/" + Self.escape(database)
        if tls != (isUnixSocket ? .disable : .prefer) { parameters.append("sslmode=\(tls.rawValue)") }
        return parameters.isEmpty ? text : text + "?" + parameters.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))) ?? text
    }

    /// The password to send: the URL's, `PGPASSWORD`, or the first matching line of the password file,
    /// which, as libpq does, is read only when it is a plain file that neither the group nor others may
    /// read or write (mode 0600 or less; see ``passwordFileProblem(environment:)``).
    func password(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let typedPassword { return typedPassword }
        if let password = environment["PGPASSWORD"] { return password }
        let file = Self.passwordFile(environment)
        guard Self.problem(withPasswordFile: file) == nil, let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            return nil
        }
        let (host, port): (String, Int) = switch transport {
        case let .tcp(host, port): (host, port)
        case let .unixSocket(_, port): ("localhost", port)
        }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.passwordFileFields(line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// Why the password file was not read though a password would have come from it, as libpq refuses
    /// it too: it is not a plain file, or the group or others may read or write it. Nil when it was read, is not there, or was not
    /// needed (a password in the URL or `PGPASSWORD`).
    public func passwordFileProblem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard typedPassword == nil, environment["PGPASSWORD"] == nil else { return nil }
        return Self.problem(withPasswordFile: Self.passwordFile(environment))
    }

    private static func passwordFile(_ environment: [String: String]) -> String {
        environment["PGPASSFILE"] ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.pgpass")
    }

    /// What makes libpq ignore a password file that is there.
    private static func problem(withPasswordFile path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else { return "\(path) is not a plain file" }
        guard info.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            return "its group or others may read or write \(path); `chmod 600 \(path)` makes it usable"
        }
        return nil
    }

    /// A password file line's fields: separated by `:`, with `\:` and `\\` standing for themselves.
    static func passwordFileFields(_ line: Substring) -> [String] {
        var fields: [String] = [], current = "", escaped = false
        for character in line {
            if escaped { current.append(character); escaped = false }
            else if character == "\\" { escaped = true }
            else if character == ":" { fields.append(current); current = "" }
            else { current.append(character) }
        }
        fields.append(current)
        return fields
    }

    /// How long a connection may take before the server counts as unreachable.
    static let connectTimeoutSeconds = 5

    /// postgres-nio's settings for this endpoint.
    func configuration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch transport {
        case let .unixSocket(folder, port):
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(port)", username: user, password: password(), database: database)
        case let .tcp(host, port):
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            if tls == .require || tls == .prefer { tlsConfiguration.certificateVerification = .none }
            if tls == .verifyCA { tlsConfiguration.certificateVerification = .noHostnameVerification }
            let tlsSetting: PostgresConnection.Configuration.TLS = switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
            configuration = .init(host: host, port: port, username: user, password: password(), database: database, tls: tlsSetting)
        }
        configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeoutSeconds))
        configuration.options.additionalStartupParameters = [("application_name", "episodic")]
        return configuration
    }
}
