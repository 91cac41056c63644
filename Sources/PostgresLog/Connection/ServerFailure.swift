import Foundation
import PostgresNIO

/// How what the driver reports becomes a ``SharedLogError`` said in words: the server's own message
/// where it sent one, a plain reason where the connection failed, never the driver's names for its
/// cases.
extension SharedLogError {
    /// A failure to connect to `endpoint`.
    init(connecting error: any Error, to endpoint: PostgresEndpoint) {
        let server = "\(endpoint)"
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo {
                self = Self(server: server, state: info[.sqlState] ?? "", message: Self.words(info), connecting: true, user: endpoint.user)
                return
            }
            if psql.code == .authMechanismRequiresPassword {
                var reason = "it asks for a password for role \(endpoint.user), and there is none in the URL, PGPASSWORD or the password file"
                if let problem = endpoint.passwordFileProblem() { reason += " (the password file was not read: \(problem))" }
                self = .denied(server: server, reason: reason)
                return
            }
            if psql.code == .sslUnsupported {
                self = .serverRefused(server: server, reason: "it does not offer TLS, which sslmode asks for")
                return
            }
            if psql.code == .unsupportedAuthMechanism || psql.code == .saslError {
                self = .denied(server: server, reason: "it asks for a way of logging in that Episodic does not support")
                return
            }
        }
        self = .unreachable(server: server, reason: Self.reason(error))
    }

    /// A statement's failure on `endpoint`.
    init(statement error: any Error, on endpoint: PostgresEndpoint) {
        let server = "\(endpoint)"
        if let psql = error as? PSQLError, let info = psql.serverInfo {
            self = Self(server: server, state: info[.sqlState] ?? "", message: Self.words(info), connecting: false, user: endpoint.user)
        } else {
            self = .unreachable(server: server, reason: Self.reason(error))
        }
    }

    private init(server: String, state: String, message: String, connecting: Bool, user: String) {
        switch Self.kind(ofState: state) {
        case .denied:
            self = .denied(server: server, reason: state == "28P01" ? "the password for role \(user) is wrong" : message)
        case .busy where state == "55P03":
            self = .lockTimedOut(server: server, waited: message)
        case .busy:
            self = .notNow(server: server, reason: message)
        default:
            self = connecting ? .serverRefused(server: server, reason: message) : .statementFailed(server: server, state: state, message: message)
        }
    }

    /// The server's message, with its detail and hint when it gave them.
    static func words(_ info: PSQLError.ServerInfo) -> String {
        var text = info[.message] ?? "an error with no message"
        if let detail = info[.detail], !detail.isEmpty { text += " (\(detail))" }
        if let hint = info[.hint], !hint.isEmpty { text += "; \(hint)" }
        return text
    }

    /// A short reason for a failure without a server message: the socket's error, a deadline passed,
    /// a connection closed.
    static func reason(_ error: any Error) -> String {
        var error = error
        if let passed = error as? PostgresSession.DeadlinePassed { return "no answer within \(passed.after.wholeSeconds)" }
        if let psql = error as? PSQLError {
            guard let underlying = psql.underlying else { return words(psql.code) }
            error = underlying
        }
        if let connection = error as? NIOConnectionError, let first = connection.connectionErrors.first?.error {
            error = first
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if error is ChannelError { return "the connection failed" }
        if error is PostgresSession.DeadlinePassed { return reason(error) }
        return "the connection failed"
    }

    /// The driver's failures without a server message, in words.
    static func words(_ code: PSQLError.Code) -> String {
        switch code {
        case .serverClosedConnection: "the server closed the connection"
        case .clientClosedConnection: "the connection was closed"
        case .connectionError, .uncleanShutdown: "the connection was lost"
        case .sslUnsupported: "the server does not offer TLS"
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest: "TLS could not be set up"
        case .queryCancelled: "the statement was cancelled"
        default: "the server answered in a way Episodic does not understand"
        }
    }
}
