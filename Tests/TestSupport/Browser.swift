import FeedCore
import Foundation
import Testing

/// A real headless browser that a test drives: Chromium through chromedriver
/// (``WebDriver``) or Firefox through its own Marionette protocol (``Marionette``). Commands
/// go to one window (and frame) at a time, chosen with ``switchToWindow(_:)`` and
/// ``switchToFrame(_:)``; every call is bounded.
public protocol Browser: Sendable {
    /// Navigates the current window and waits for the page to load.
    func open(_ url: String) async throws
    /// Runs `script` (a function body; `return` gives the result) in the current page.
    @discardableResult func execute(_ script: String) async throws -> JSONValue
    /// Opens a new `"window"` of its own, shown beside the others, or a `"tab"` (a
    /// background tab, hidden until switched to); not switched to. Returns its handle.
    func newWindow(type: String) async throws -> String
    /// The handle of the window commands go to.
    func currentWindow() async throws -> String
    /// Sends the next commands to the window `handle` (its top document), and shows it.
    func switchToWindow(_ handle: String) async throws
    /// Closes the current window (switch to another afterwards).
    func closeWindow() async throws
    /// Sends the next commands to the `index`th frame of the current document (`nil`: back
    /// to the top document).
    func switchToFrame(_ index: Int?) async throws
    /// Kills the process that renders the current window's page, as a crash would.
    func crashPage() async throws
    /// Closes the browser and whatever runs it.
    func quit() async
}

extension Browser {
    /// Runs `body` with `browser`, then quits it whatever `body` did.
    public static func ending<T>(_ browser: Self, _ body: (Self) async throws -> T) async throws -> T {
        do {
            let result = try await body(browser)
            await browser.quit()
            return result
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// Opens a new background tab (not switched to); returns its handle.
    public func newTab() async throws -> String {
        try await newWindow(type: "tab")
    }

    /// Opens a new window of its own (not switched to), shown beside the others.
    public func newWindow() async throws -> String {
        try await newWindow(type: "window")
    }

    /// Polls `script` until it returns `true`, for at most `seconds`; returns whether it did.
    public func waitFor(_ script: String, seconds: Double) async throws -> Bool {
        do {
            try await Eventually.check("the page script to return true", within: seconds, poll: .milliseconds(50)) {
                try await self.execute(script) == .bool(true)
            }
            return true
        } catch is Eventually.TimedOut {
            return false
        }
    }
}

/// The browsers the tests can drive, as test arguments.
public enum BrowserKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case chromium
    case firefox

    public var testDescription: String { rawValue }

    /// Whether this browser (and what drives it) is installed.
    public var isInstalled: Bool {
        switch self {
        case .chromium: return WebDriver.isAvailable
        case .firefox: return Marionette.isAvailable
        }
    }

    /// The installed ones (`.ci/run` installs both).
    public static var installed: [BrowserKind] { allCases.filter(\.isInstalled) }

    /// Runs `body` with a new headless browser of this kind, then ends the browser whatever
    /// `body` did.
    public func withSession<T>(
        windowWidth: Int = 1280, windowHeight: Int = 800, _ body: (any Browser) async throws -> T
    ) async throws -> T {
        switch self {
        case .chromium:
            return try await WebDriver.withSession(windowWidth: windowWidth, windowHeight: windowHeight) {
                try await body($0)
            }
        case .firefox:
            return try await Marionette.ending(Marionette(windowWidth: windowWidth, windowHeight: windowHeight)) {
                try await body($0)
            }
        }
    }
}
