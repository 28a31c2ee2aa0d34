import FeedCore
import Foundation
import Glibc

/// Headless Chromium driven through chromedriver's W3C WebDriver protocol (JSON over
/// HTTP on loopback). Debian's `chromium` and `chromium-driver` packages provide both.
public final class WebDriver {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let driver: Process
    public let port: UInt16
    public let session: String

    /// Whether chromedriver and Chromium are installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    /// Starts chromedriver on a free port and opens a headless browser session.
    public init(windowWidth: Int = 1280, windowHeight: Int = 800) throws {
        port = try FreePort.find()
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        let deadline = Date().addingTimeInterval(15)
        while true {
            if let status = try? HTTPTestClient.get(port: port, "/status", timeout: 2), status.status == 200 { break }
            guard Date() < deadline else {
                ChildProcess.kill(driver)
                throw Failure(description: "chromedriver did not start")
            }
            usleep(100_000)
        }
        let capabilities: JSONValue = .object([
            "capabilities": .object([
                "alwaysMatch": .object([
                    "browserName": .string("chrome"),
                    "goog:chromeOptions": .object([
                        "binary": .string("/usr/bin/chromium"),
                        "args": .array(
                            [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--window-size=\(windowWidth),\(windowHeight)", "--no-first-run",
                                "--disable-background-networking",
                            ].map(JSONValue.string)),
                    ]),
                    "goog:loggingPrefs": .object(["browser": .string("ALL")]),
                ])
            ])
        ])
        let response = try Self.call(port: port, "POST", "/session", capabilities)
        guard let id = response["value"]?["sessionId"]?.stringValue else {
            ChildProcess.kill(driver)
            throw Failure(description: "no session: \(response.serializedString())")
        }
        session = id
    }

    deinit {
        _ = try? Self.call(port: port, "DELETE", "/session/\(session)", nil)
        ChildProcess.kill(driver)
    }

    /// Navigates and waits for the page to load.
    public func open(_ url: String) throws {
        _ = try command("POST", "url", .object(["url": .string(url)]))
    }

    /// Runs `script` (a function body; `return` gives the result) in the page.
    @discardableResult
    public func execute(_ script: String) throws -> JSONValue {
        try command("POST", "execute/sync", .object(["script": .string(script), "args": .array([])]))["value"] ?? .null
    }

    /// Polls `script` until it returns `true`, for at most `seconds`; returns whether it did.
    public func waitFor(_ script: String, seconds: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try execute(script) == .bool(true) { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    /// The browser console messages since the last call (level and text).
    public func consoleMessages() throws -> [(level: String, message: String)] {
        let value = try command("POST", "se/log", .object(["type": .string("browser")]))["value"]?.arrayValue ?? []
        return value.map { ($0["level"]?.stringValue ?? "", $0["message"]?.stringValue ?? "") }
    }

    /// A PNG screenshot of the viewport.
    public func screenshot() throws -> Data {
        let value = try command("GET", "screenshot", nil)["value"]?.stringValue ?? ""
        return Data(base64Encoded: value) ?? Data()
    }

    private func command(_ method: String, _ path: String, _ body: JSONValue?) throws -> JSONValue {
        let response = try Self.call(port: port, method, "/session/\(session)/\(path)", body)
        if let error = response["value"]?["error"]?.stringValue {
            throw Failure(description: "\(path): \(error): \(response["value"]?["message"]?.stringValue ?? "")")
        }
        return response
    }

    private static func call(port: UInt16, _ method: String, _ path: String, _ body: JSONValue?) throws -> JSONValue {
        let response: TestResponse
        if let body {
            response = try HTTPTestClient.send(
                port: port, path, method: method, body: body.serializedBytes(), timeout: 60)
        } else {
            response = try HTTPTestClient.get(port: port, path, method: method, timeout: 60)
        }
        return try JSONValue(parsing: response.body)
    }
}

/// A free TCP port on 127.0.0.1 (bound once by the kernel, then released).
public enum FreePort {
    public static func find() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw RawSocket.Failure.connect(errno) }
        return UInt16(bigEndian: address.sin_port)
    }
}
