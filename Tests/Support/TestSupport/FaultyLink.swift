import Foundation

/// A TCP proxy between PostgreSQL clients and a server, in the test's own process, that fails the link
/// on purpose: at a chosen statement it cuts the connection, stalls it (nothing passes either way,
/// the sockets stay open), black-holes it (what the client sends is read and dropped, nothing comes
/// back), or lets the statement reach the server and loses the reply. It reads the protocol's
/// messages from client to server to count statements: a connection's login is one, then each
/// statement ends with a Sync (the extended protocol) or is one Query.
public final class FaultyLink: @unchecked Sendable {
    public enum Fault: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Both sockets closed at once.
        case cut
        /// Nothing passes either way; the sockets stay open.
        case stall
        /// The client's bytes are read and dropped; nothing comes back.
        case blackHole
        /// The statement reaches the server, which runs it; its reply never comes back.
        case loseReply

        public var description: String { rawValue }
    }

    /// The port clients connect to, on 127.0.0.1.
    public let port: Int
    private let serverPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var sent: [String] = []
    private var plan: (statement: Int, fault: Fault)?
    private var connections: [Connection] = []
    private var closed = false

    /// Listens on a free port of 127.0.0.1 and forwards to the server on `serverPort` there.
    public init(toPort serverPort: Int) throws {
        self.serverPort = serverPort
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listening, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) == 0 && getsockname(listening, $0, &length) == 0 }
        }
        guard bound, listen(listening, 64) == 0 else {
            Glibc.close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        listener = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close() }

    /// What clients have sent through the link so far, a statement each: `login` for a connection's
    /// login, else the statement's SQL.
    public var statements: [String] { lock.withLock { sent } }

    /// Fails the link with `fault` when the client sends statement number `index` (counting from 0,
    /// as ``statements`` lists them) from now on; once.
    public func arm(_ fault: Fault, atStatement index: Int) {
        lock.withLock { plan = (sent.count + index, fault) }
    }

    /// Forgets a fault armed and not yet met.
    public func disarm() {
        lock.withLock { plan = nil }
    }

    /// Cuts every connection open now, as a server that stops does.
    public func cutAll() {
        for connection in lock.withLock({ connections }) { connection.cut() }
    }

    /// Stops listening and cuts every connection.
    public func close() {
        let wasClosed = lock.withLock { () -> Bool in defer { closed = true }; return closed }
        guard !wasClosed else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        cutAll()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: serverPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                Glibc.close(client)
                Glibc.close(server)
                continue
            }
            let connection = Connection(client: client, server: server)
            lock.withLock { connections.append(connection) }
            Thread.detachNewThread { [self] in clientToServer(connection) }
            Thread.detachNewThread { connection.serverToClient() }
        }
    }

    /// Reads the client's messages, counts statements, and forwards each statement whole unless the
    /// plan fails it.
    private func clientToServer(_ connection: Connection) {
        var pending: [UInt8] = []
        var loggedIn = false
        var statement: String?
        while let chunk = connection.readClient() {
            if connection.state == .blackHole { continue }
            pending += chunk
            while true {
                guard let (end, kind, sql) = Self.nextMessage(in: pending, loggedIn: loggedIn) else { break }
                let message = Array(pending[..<end])
                pending.removeFirst(end)
                if !loggedIn {
                    // An SSL or GSS request is answered by the server and followed by the login itself.
                    if kind == "request" { connection.forward(message); continue }
                    loggedIn = true
                    guard decide(connection, "login", message) else { return }
                    continue
                }
                if let sql { statement = sql }
                connection.hold(message)
                switch kind {
                case "S", "Q":
                    let text = kind == "Q" ? sql ?? "" : statement ?? ""
                    statement = nil
                    guard decide(connection, text, connection.takeHeld()) else { return }
                case "P", "B", "D", "E", "C":
                    break  // Parts of a statement, sent on with its Sync.
                default:
                    // A flush, a password, a termination: on at once.
                    connection.forward(connection.takeHeld())
                }
                if connection.state != .open {
                    pending = []
                    break
                }
            }
        }
        connection.cut()
    }

    /// Counts a statement, and forwards `bytes` unless the plan fails the link here; false when the
    /// pump is to stop reading.
    private func decide(_ connection: Connection, _ text: String, _ bytes: [UInt8]) -> Bool {
        let fault: Fault? = lock.withLock {
            sent.append(text)
            guard let plan, plan.statement == sent.count - 1 else { return nil }
            self.plan = nil
            return plan.fault
        }
        switch fault {
        case nil:
            connection.forward(bytes)
            return true
        case .cut:
            connection.cut()
            return false
        case .stall:
            connection.state = .stalled
            return false
        case .blackHole:
            connection.state = .blackHole
            return true
        case .loseReply:
            connection.state = .stalled
            connection.forward(bytes)
            return false
        }
    }

    /// The end of the first whole message in `bytes`, its kind (a type letter, `login`, `request`), and
    /// the SQL it carries (a Parse's or a Query's); nil when it is not all there yet.
    static func nextMessage(in bytes: [UInt8], loggedIn: Bool) -> (Int, String, String?)? {
        if !loggedIn {
            guard bytes.count >= 8 else { return nil }
            let length = Int(Self.int32(bytes, at: 0))
            guard bytes.count >= length else { return nil }
            let code = Self.int32(bytes, at: 4)
            // 80877103: SSLRequest; 80877104: GSSENCRequest.
            return (length, code == 80_877_103 || code == 80_877_104 ? "request" : "login", nil)
        }
        guard bytes.count >= 5 else { return nil }
        let kind = String(UnicodeScalar(bytes[0]))
        let end = 1 + Int(Self.int32(bytes, at: 1))
        guard bytes.count >= end else { return nil }
        var sql: String?
        if kind == "Q" {
            sql = String(decoding: bytes[5..<(end - 1)], as: UTF8.self)
        } else if kind == "P", let nameEnd = bytes[5..<end].firstIndex(of: 0),
            let queryEnd = bytes[(nameEnd + 1)..<end].firstIndex(of: 0)
        {
            sql = String(decoding: bytes[(nameEnd + 1)..<queryEnd], as: UTF8.self)
        }
        return (end, kind, sql)
    }

    private static func int32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// One client's connection and the server connection made for it.
    final class Connection: @unchecked Sendable {
        enum State { case open, stalled, blackHole, cut }

        let client: Int32
        let server: Int32
        private let lock = NSLock()
        private var current = State.open
        private var held: [UInt8] = []

        init(client: Int32, server: Int32) {
            (self.client, self.server) = (client, server)
        }

        var state: State {
            get { lock.withLock { current } }
            set { lock.withLock { if current != .cut { current = newValue } } }
        }

        func readClient() -> [UInt8]? { Self.read(client) }

        func hold(_ bytes: [UInt8]) { lock.withLock { held += bytes } }
        func takeHeld() -> [UInt8] { lock.withLock { defer { held = [] }; return held } }

        func forward(_ bytes: [UInt8]) { Self.write(server, bytes) }

        /// Relays the server's bytes to the client while the link is open.
        func serverToClient() {
            while let chunk = Self.read(server) {
                guard state == .open else { continue }
                Self.write(client, chunk)
            }
            if state == .open { cut() }
        }

        /// Closes both sockets; the pumps then see their ends.
        func cut() {
            let first = lock.withLock { () -> Bool in defer { current = .cut }; return current != .cut }
            guard first else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }

        private static func read(_ socket: Int32) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
                if count > 0 { return Array(buffer[..<count]) }
                if count < 0, errno == EINTR { continue }
                return nil
            }
        }

        private static func write(_ socket: Int32, _ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count > 0 { offset += count } else if count < 0, errno == EINTR { continue } else { return }
            }
        }

        deinit {
            Glibc.close(client)
            Glibc.close(server)
        }
    }
}
