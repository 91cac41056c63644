import Logging
import PostgresNIO

/// One connection to a shared library's server, used synchronously: a command connects, runs a few
/// statements and closes, which suits a process per command. Each call blocks the calling thread (never
/// a NIO event loop) until the server answers.
public final class PostgresSession {
    public let endpoint: PostgresEndpoint
    let connection: PostgresConnection
    let logger: Logger

    /// Connects, or throws ``SharedLogError/unreachable(server:reason:)`` (no answer) or
    /// ``SharedLogError/serverRefused(server:reason:)`` (an answer that says no).
    public init(_ endpoint: PostgresEndpoint, logger: Logger = Logger(label: "episodic.postgres")) throws {
        self.endpoint = endpoint
        self.logger = logger
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try endpoint.configuration()
        } catch {
            throw SharedLogError.serverRefused(server: "\(endpoint)", reason: "TLS cannot be set up: \(error)")
        }
        do {
            connection = try PostgresConnection.connect(
                on: Self.eventLoop, configuration: configuration, id: 1, logger: logger
            ).wait()
        } catch {
            throw Self.connectionFailure(error, endpoint: endpoint)
        }
    }

    deinit { try? connection.close().wait() }

    /// One thread for every connection of the process: a command makes one or two, and a thread per
    /// core would only cost their start.
    private static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// Runs one statement and returns its rows. A server error comes back as the `PSQLError`; a lost
    /// connection as ``SharedLogError/unreachable(server:reason:)``.
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
        do {
            return try connection.query(query, logger: logger).wait()
        } catch let error as PSQLError where error.serverInfo == nil {
            throw SharedLogError.unreachable(server: "\(endpoint)", reason: Self.reason(error))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try query("BEGIN")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    static func connectionFailure(_ error: any Error, endpoint: PostgresEndpoint) -> SharedLogError {
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
            return .serverRefused(server: "\(endpoint)", reason: message)
        }
        if let error = error as? PSQLError, error.code == .authMechanismRequiresPassword {
            return .serverRefused(server: "\(endpoint)", reason: "it asks for a password, and there is none in PGPASSWORD or ~/.pgpass")
        }
        return .unreachable(server: "\(endpoint)", reason: reason(error))
    }

    /// A short reason for a failure without a server message: the socket's error, a timeout.
    static func reason(_ error: any Error) -> String {
        var error = error
        if let psql = error as? PSQLError {
            guard let underlying = psql.underlying else { return "\(psql.code)" }
            error = underlying
        }
        if let connection = error as? NIOConnectionError, let first = connection.connectionErrors.first?.error {
            error = first
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if error is ChannelError { return "no answer within \(PostgresEndpoint.connectTimeoutSeconds) s" }
        return "\(error)"
    }
}
