import Logging
import PostgresNIO

/// One connection to a shared library's server, used synchronously: a command connects, runs a few
/// statements and closes, which suits a process per command. Each call blocks the calling thread (never
/// a NIO event loop) until the server answers, or until its deadline passes: then the connection is
/// closed and the call fails, so that no command ever waits on a server that has gone silent.
///
/// Every failure is a ``SharedLogError``: the server's own refusals keep their SQLSTATE
/// (``SharedLogError/statementFailed(server:state:message:)``) for callers that expect one.
public final class PostgresSession {
    public let endpoint: PostgresEndpoint
    let connection: PostgresConnection
    let logger: Logger
    /// The longest a statement may wait for what other machines hold (the head's lock): the command's
    /// lock timeout.
    public let lockWait: Duration
    /// Whether a call found the connection lost or gave up on it: nothing more can be asked on it.
    public private(set) var isBroken = false

    /// Connects within ``connectDeadline`` (the TCP connection, TLS and the login together), or throws
    /// ``SharedLogError/unreachable(server:reason:)`` (no answer), ``SharedLogError/notNow(server:reason:)``
    /// (starting up, shutting down, too many clients) or ``SharedLogError/denied(server:reason:)``.
    public init(
        _ endpoint: PostgresEndpoint, lockWait: Duration = .seconds(10), logger: Logger = Logger(label: "episodic.postgres")
    ) throws(SharedLogError) {
        self.endpoint = endpoint
        self.logger = logger
        self.lockWait = lockWait
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try endpoint.configuration()
        } catch {
            throw .serverRefused(server: "\(endpoint)", reason: "TLS cannot be set up: \(error)")
        }
        let connecting = PostgresConnection.connect(on: Self.eventLoop, configuration: configuration, id: 1, logger: logger)
        do {
            connection = try Self.wait(for: connecting, within: Self.connectDeadline) {
                // Given up on: a connection that comes after all is closed at once.
                connecting.whenSuccess(Self.close)
            }
        } catch {
            throw SharedLogError(connecting: error, to: endpoint)
        }
    }

    deinit { Self.close(connection) }

    /// One thread for every connection of the process: a command makes one or two, and a thread per
    /// core would only cost their start.
    private static let eventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// How long connecting may take, TLS and login included.
    public static let connectDeadline = Duration.seconds(5)
    /// How long an answer may take beyond any wait for locks: the network and the server's own work.
    public static let replyGrace = Duration.seconds(5)

    /// Runs one statement and returns its rows. `waitsForOthers`: the statement may wait up to
    /// ``lockWait`` for another machine's lock, and is given that much longer. `work`: the statement
    /// reads much (a digest of the whole log), and is given that much longer.
    ///
    /// A statement with no answer by its deadline closes the connection and fails as
    /// ``SharedLogError/unreachable(server:reason:)``, as a lost connection does: whether it took
    /// effect is unknown, which the caller of a write says.
    @discardableResult
    public func query(_ query: PostgresQuery, waitsForOthers: Bool = false, work: Duration = .zero) throws(SharedLogError)
        -> PostgresQueryResult
    {
        guard !isBroken else { throw .unreachable(server: "\(endpoint)", reason: "the connection was lost") }
        let deadline = Self.replyGrace + work + (waitsForOthers ? lockWait : .zero)
        do {
            return try Self.wait(for: connection.query(query, logger: logger), within: deadline) { [connection] in
                Self.close(connection)
            }
        } catch {
            switch SharedLogError(statement: error, on: endpoint) {
            case .unreachable(let server, let reason):
                isBroken = true
                throw .unreachable(server: server, reason: reason)
            case .lockTimedOut(let server, _):
                throw .lockTimedOut(server: server, waited: lockWait.wholeSeconds)
            case let failure:
                throw failure
            }
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

    /// Closes `connection` at once, without waiting for the server; the connection is kept until its
    /// channel has closed, which the driver requires of it.
    @Sendable static func close(_ connection: PostgresConnection) {
        let closed: EventLoopFuture<Void> = connection.close()
        closed.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Calls `wake` when the connection closes, for whoever waits on it (a listener).
    func onClose(_ wake: @escaping @Sendable () -> Void) {
        connection.closeFuture.whenComplete { _ in wake() }
    }

    /// The value of `future`, or a ``DeadlinePassed`` once `deadline` has passed, whichever is first;
    /// `giveUp` runs when the deadline wins (it closes the connection, which fails what is pending on it).
    /// Waiting on a promise of our own, not on `future` itself: a driver that never completes a
    /// future cannot keep the caller waiting.
    static func wait<Value: Sendable>(
        for future: EventLoopFuture<Value>, within deadline: Duration, giveUp: @escaping @Sendable () -> Void
    ) throws -> Value {
        let loop = future.eventLoop
        let answer = loop.makePromise(of: Value.self)
        future.whenComplete { result in
            switch result {
            case .success(let value): answer.succeed(value)
            case .failure(let error): answer.fail(error)
            }
        }
        let timer = loop.scheduleTask(in: .nanoseconds(Int64(deadline.nanoseconds))) {
            answer.fail(DeadlinePassed(after: deadline))
            giveUp()
        }
        defer { timer.cancel() }
        return try answer.futureResult.wait()
    }

    /// No answer came in time.
    struct DeadlinePassed: Error {
        var after: Duration
    }
}

extension Duration {
    /// The whole duration in nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// The duration in seconds, for messages.
    var wholeSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int64(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
