import FeedCore
import Foundation
import Glibc

/// Headless Chromium driven through chromedriver's W3C WebDriver protocol (JSON over
/// HTTP on loopback). Debian's `chromium` and `chromium-driver` packages provide both. One
/// of the ``Browser``s (``Marionette`` drives Firefox); it adds DevTools and the console.
///
/// Use ``withSession(windowWidth:windowHeight:_:)``, which always ends the browser; every
/// call is `async` and bounded.
public final class WebDriver: Browser {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let driver: Subprocess
    /// chromedriver's and Chromium's temporary files (its `TMPDIR`), removed with this object.
    private let scratch: ScratchDirectory
    public let port: UInt16
    public let session: String

    /// Whether chromedriver and Chromium are installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    /// Runs `body` with a new headless browser, then ends the browser whatever `body` did.
    public static func withSession<T>(
        windowWidth: Int = 1280, windowHeight: Int = 800, _ body: (WebDriver) async throws -> T
    ) async throws -> T {
        try await ending(WebDriver(windowWidth: windowWidth, windowHeight: windowHeight), body)
    }

    /// Starts chromedriver on a free port and opens a headless browser session, Chromium
    /// started with `arguments` too. End it with ``quit()``; a session that is let go
    /// without it is ended in the background.
    public init(windowWidth: Int = 1280, windowHeight: Int = 800, arguments: [String] = []) async throws {
        port = try FreePort.find()
        driver = Subprocess()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        scratch = try ScratchDirectory("chromium")
        driver.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { $1 }
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        let port = self.port
        do {
            try await Eventually.check("chromedriver to answer", within: 15, poll: .milliseconds(100)) {
                try await HTTPTestClient.get(port: port, "/status", timeout: 2).status == 200
            }
        } catch {
            await ChildProcess.terminate(driver)
            throw Failure(description: "chromedriver did not start: \(error)")
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
                            ].map(JSONValue.string) + arguments.map(JSONValue.string)),
                    ]),
                    "goog:loggingPrefs": .object(["browser": .string("ALL")]),
                    // A page that cannot load (its connections starved, say) fails the
                    // command after 20 s, not chromedriver's 300.
                    "timeouts": .object(["pageLoad": .int(20_000), "script": .int(20_000)]),
                ])
            ])
        ])
        let response = try await Self.call(port: port, "POST", "/session", capabilities)
        guard let id = response["value"]?["sessionId"]?.stringValue else {
            await ChildProcess.terminate(driver)
            throw Failure(description: "no session: \(response.serializedString())")
        }
        session = id
    }

    deinit {
        guard driver.isRunning else { return }
        let (port, session, driver, scratch) = (port, session, driver, scratch.path)
        Task.detached {
            _ = try? await Self.call(port: port, "DELETE", "/session/\(session)", nil)
            await ChildProcess.terminate(driver)
            ChildProcess.killAll(mentioning: scratch)
        }
    }

    /// Closes the browser and stops chromedriver; a Chromium that outlived them (its
    /// session not deleted in time, chromedriver stopped under it) is killed by its PID,
    /// found by the scratch directory in its arguments.
    public func quit() async {
        _ = try? await Self.call(port: port, "DELETE", "/session/\(session)", nil)
        await ChildProcess.terminate(driver)
        ChildProcess.killAll(mentioning: scratch.path)
    }

    /// Navigates and waits for the page to load.
    public func open(_ url: String) async throws {
        _ = try await command("POST", "url", .object(["url": .string(url)]))
    }

    /// Runs `script` (a function body; `return` gives the result) in the page.
    @discardableResult
    public func execute(_ script: String) async throws -> JSONValue {
        try await command("POST", "execute/sync", .object(["script": .string(script), "args": .array([])]))["value"]
            ?? .null
    }

    /// The browser console messages since the last call (level and text).
    public func consoleMessages() async throws -> [(level: String, message: String)] {
        let value =
            try await command("POST", "se/log", .object(["type": .string("browser")]))["value"]?.arrayValue ?? []
        return value.map { ($0["level"]?.stringValue ?? "", $0["message"]?.stringValue ?? "") }
    }

    /// Opens a new window of its own (not switched to), shown beside the others, or a tab (a
    /// tab the commands are not sent to is a background tab: its page is hidden); returns its
    /// handle.
    public func newWindow(type: String) async throws -> String {
        let value = try await command("POST", "window/new", .object(["type": .string(type)]))["value"]
        guard let handle = value?["handle"]?.stringValue else { throw Failure(description: "no new \(type)") }
        return handle
    }

    /// The handle of the window commands go to.
    public func currentWindow() async throws -> String {
        try await command("GET", "window", nil)["value"]?.stringValue ?? ""
    }

    /// Sends the next commands to the window `handle` (its top document).
    public func switchToWindow(_ handle: String) async throws {
        _ = try await command("POST", "window", .object(["handle": .string(handle)]))
    }

    /// Closes the current window (switch to another afterwards).
    public func closeWindow() async throws {
        _ = try await command("DELETE", "window", nil)
    }

    /// Sends the next commands to the `index`th frame of the current document (`nil`: back
    /// to the top document).
    public func switchToFrame(_ index: Int?) async throws {
        _ = try await command("POST", "frame", .object(["id": index.map { .int(Int64($0)) } ?? .null]))
    }

    /// Crashes the renderer of the current window's page (DevTools' `Page.crash`; the
    /// command itself fails as the renderer goes).
    public func crashPage() async throws {
        _ = try? await devTools("Page.crash")
    }

    /// Runs a Chrome DevTools Protocol command on the current window (chromedriver's
    /// `goog/cdp/execute`).
    @discardableResult
    public func devTools(_ method: String, _ parameters: JSONValue = .object([:])) async throws -> JSONValue {
        try await command(
            "POST", "goog/cdp/execute", .object(["cmd": .string(method), "params": parameters]))["value"] ?? .null
    }

    /// A PNG screenshot of the viewport.
    public func screenshot() async throws -> Data {
        let value = try await command("GET", "screenshot", nil)["value"]?.stringValue ?? ""
        return Data(base64Encoded: value) ?? Data()
    }

    private func command(_ method: String, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
        let response = try await Self.call(port: port, method, "/session/\(session)/\(path)", body)
        if let error = response["value"]?["error"]?.stringValue {
            throw Failure(description: "\(path): \(error): \(response["value"]?["message"]?.stringValue ?? "")")
        }
        return response
    }

    private static func call(port: UInt16, _ method: String, _ path: String, _ body: JSONValue?) async throws
        -> JSONValue
    {
        let response: TestResponse
        if let body {
            response = try await HTTPTestClient.send(
                port: port, path, method: method, body: body.serializedBytes(), timeout: 60)
        } else {
            response = try await HTTPTestClient.get(port: port, path, method: method, timeout: 60)
        }
        return try JSONValue(parsing: response.body)
    }
}

/// A free TCP port on 127.0.0.1 (bound once by the kernel, then released).
public enum FreePort {
    public static func find() throws -> UInt16 {
        let socket = try ListeningSocket()
        defer { socket.close() }
        return socket.port
    }
}
