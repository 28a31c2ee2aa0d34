import FeedCore
import Foundation
import Glibc

/// Headless Firefox driven through Marionette, the remote protocol built into Firefox (the
/// one geckodriver turns W3C WebDriver's HTTP into: Debian packages Firefox ESR, but no
/// geckodriver, and PyPI has none either). Debian's `firefox-esr` package is all it needs.
///
/// Marionette speaks over one TCP connection on loopback: each message is its JSON text's
/// length in decimal, a colon, then the text. A command is `[0, id, name, parameters]`; its
/// answer `[1, id, error, result]`, with `error` null on success. On connecting, Firefox
/// first sends a greeting (`{"applicationType": "gecko", "marionetteProtocol": 3}`).
///
/// Commands go one at a time (a second one while one is in flight fails, rather than read
/// the other's answer); each waits at most 60 s for its answer.
public actor Marionette: Browser {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private static let binary = "/usr/bin/firefox-esr"

    /// Whether Firefox ESR is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    private let firefox: Subprocess
    /// Firefox's profile, `HOME` and `TMPDIR`, removed with this object.
    private let scratch: ScratchDirectory
    private let connection: RawSocket
    /// Bytes read from the connection that do not yet make a whole message.
    private var unread: [UInt8] = []
    private var lastCommand: Int64 = 0
    private var inFlight = false

    /// Starts headless Firefox on a profile of its own, with Marionette on a port the kernel
    /// picks, and opens a session (pages load within 20 s, scripts run within 20 s).
    public init(windowWidth: Int = 1280, windowHeight: Int = 800) async throws {
        scratch = try ScratchDirectory("firefox")
        let profile = scratch.file("profile")
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        // Port 0: Firefox writes the port it got to `MarionetteActivePort` in the profile.
        // Up to 16 content processes per site (Firefox's default is 4): each window of a
        // test gets a process of its own, as in Chromium, so ``crashPage()`` takes one page.
        let preferences = """
            user_pref("marionette.port", 0);
            user_pref("dom.ipc.processCount.webIsolated", 16);

            """
        try Data(preferences.utf8).write(to: URL(fileURLWithPath: profile + "/user.js"))
        firefox = Subprocess()
        firefox.executableURL = URL(fileURLWithPath: Self.binary)
        firefox.arguments = [
            "--headless", "--marionette", "--no-remote", "--profile", profile,
            "--window-size=\(windowWidth),\(windowHeight)",
            // Lets ``crashPage()`` find the process that renders a page.
            "--remote-allow-system-access",
        ]
        firefox.environment = ProcessInfo.processInfo.environment.merging([
            "HOME": scratch.path, "TMPDIR": scratch.path, "MOZ_CRASHREPORTER_DISABLE": "1",
        ]) { $1 }
        try firefox.run()
        do {
            let portFile = profile + "/MarionetteActivePort"
            try await Eventually.check("Firefox to listen for Marionette", within: 30, poll: .milliseconds(100)) {
                Self.port(in: portFile) != nil
            }
            guard let port = Self.port(in: portFile) else { throw Failure(description: "no port in \(portFile)") }
            connection = try await RawSocket(port: port, timeout: 60)
        } catch {
            Self.end(firefox)
            throw Failure(description: "Firefox did not start Marionette: \(error)")
        }
        do {
            let greeting = try await readMessage()
            guard greeting["applicationType"]?.stringValue == "gecko" else {
                throw Failure(description: "not Marionette: \(greeting.serializedString())")
            }
            _ = try await command(
                "WebDriver:NewSession",
                .object([
                    "capabilities": .object([
                        "alwaysMatch": .object([
                            "timeouts": .object(["pageLoad": .int(20_000), "script": .int(20_000)])
                        ])
                    ])
                ]))
        } catch {
            Self.end(firefox)
            throw error
        }
    }

    deinit {
        Self.end(firefox)
    }

    /// The port in Firefox's `MarionetteActivePort` file, once it is written.
    private static func port(in file: String) -> UInt16? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
            UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Kills Firefox and every process it started (its process group: the content
    /// processes too) at once.
    private static func end(_ firefox: Subprocess) {
        guard firefox.isRunning else { return }
        Glibc.kill(-firefox.processIdentifier, SIGKILL)
    }

    public func quit() async {
        _ = try? await command("Marionette:Quit", .object(["flags": .array([.string("eForceQuit")])]))
        // Firefox quits once its content processes have; if it does not, the whole group goes.
        if !(await ChildProcess.exited(firefox, within: 10)) {
            Self.end(firefox)
            _ = await ChildProcess.exited(firefox, within: 5)
        }
    }

    public func open(_ url: String) async throws {
        _ = try await command("WebDriver:Navigate", .object(["url": .string(url)]))
    }

    @discardableResult
    public func execute(_ script: String) async throws -> JSONValue {
        try await command("WebDriver:ExecuteScript", .object(["script": .string(script), "args": .array([])]))[
            "value"] ?? .null
    }

    public func newWindow(type: String) async throws -> String {
        let value = try await command("WebDriver:NewWindow", .object(["type": .string(type)]))
        guard let handle = value["handle"]?.stringValue else { throw Failure(description: "no new \(type)") }
        return handle
    }

    public func currentWindow() async throws -> String {
        try await command("WebDriver:GetWindowHandle")["value"]?.stringValue ?? ""
    }

    public func switchToWindow(_ handle: String) async throws {
        _ = try await command("WebDriver:SwitchToWindow", .object(["handle": .string(handle), "focus": .bool(true)]))
    }

    public func closeWindow() async throws {
        _ = try await command("WebDriver:CloseWindow")
    }

    public func switchToFrame(_ index: Int?) async throws {
        _ = try await command("WebDriver:SwitchToFrame", .object(index.map { ["id": .int(Int64($0))] } ?? [:]))
    }

    /// Kills (SIGKILL) the content process of the current window's page. The page names its
    /// window with a token; Firefox's own side (the "chrome" context) finds the tab whose
    /// browsing context has that name and the process it runs in.
    public func crashPage() async throws {
        let token = "feedweb-crash-\(UInt64.random(in: 1...UInt64.max))"
        try await switchToFrame(nil)
        try await execute("window.name = '\(token)'; return true")
        _ = try await command("Marionette:SetContext", .object(["value": .string("chrome")]))
        let found = try await execute(
            """
            for (const w of Services.wm.getEnumerator('navigator:browser')) {
              for (const b of w.gBrowser.browsers) {
                const g = b.browsingContext && b.browsingContext.currentWindowGlobal;
                if (b.browsingContext && b.browsingContext.name === '\(token)' && g) return g.osPid;
              }
            }
            return -1;
            """)
        _ = try await command("Marionette:SetContext", .object(["value": .string("content")]))
        guard let pid = found.int64Value, pid > 0, pid != Int64(firefox.processIdentifier) else {
            throw Failure(description: "no content process for the page (\(found.serializedString()))")
        }
        Glibc.kill(pid_t(pid), SIGKILL)
    }

    /// Sends command `name` and returns its result; throws Firefox's error, if any.
    private func command(_ name: String, _ parameters: JSONValue = .object([:])) async throws -> JSONValue {
        guard !inFlight else { throw Failure(description: "\(name): another command is in flight") }
        inFlight = true
        defer { inFlight = false }
        lastCommand += 1
        let id = lastCommand
        let text = JSONValue.array([.int(0), .int(id), .string(name), parameters]).serializedBytes()
        try await connection.send(Array("\(text.count):".utf8) + text)
        while true {
            let message = try await readMessage()
            // Anything but this command's answer (there is none other while it is in flight).
            guard let fields = message.arrayValue, fields.count == 4, fields[0].int64Value == 1,
                fields[1].int64Value == id
            else { continue }
            if !fields[2].isNull {
                let error = fields[2]["error"]?.stringValue ?? ""
                let detail = fields[2]["message"]?.stringValue ?? fields[2].serializedString()
                throw Failure(description: "\(name): \(error): \(detail)")
            }
            return fields[3]
        }
    }

    /// The next message: `LENGTH:JSON`.
    private func readMessage() async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let colon = unread.firstIndex(of: UInt8(ascii: ":")) {
                guard colon > 0, colon <= 10, let length = Int(String(decoding: unread[..<colon], as: UTF8.self))
                else { throw Failure(description: "not a Marionette message: \(unread.prefix(32))") }
                let end = colon + 1 + length
                if unread.count >= end {
                    let text = Array(unread[(colon + 1)..<end])
                    unread.removeFirst(end)
                    return try JSONValue(parsing: text)
                }
            } else if unread.count > 10 {
                throw Failure(description: "not a Marionette message: \(unread.prefix(32))")
            }
            unread += try await connection.receive(before: deadline)
        }
    }
}
