import FeedCore
import Foundation
import TestSupport
import Testing

/// A story without a usable thumbnail shows the placeholder image from Public/: when the
/// feed has none (NYT's `""`), when its URL is unsafe, and when it fails to load.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct ThumbnailPlaceholderTests {
    static let placeholder = "/static/placeholder.svg"
    static let picture = "/static/demo/globe.svg"
    static let broken = "http://127.0.0.1:9/no-such-image.png"

    /// Thumbnails the pages must never use as an image source.
    static let unsafe = [
        "javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "//evil.example/x.png",
        "vbscript:msgbox(1)",
    ]

    let server: TestServer

    /// Stories 0…5 as NewswireFeed makes them (0 and 3 have `""`, the others a picture),
    /// then one story per unsafe thumbnail, then one whose picture cannot load.
    init() throws {
        var stories = (0..<6).map { NewswireFeed.story($0) }
        for (offset, url) in ([Self.broken] + Self.unsafe).enumerated() {
            guard case .object(var story) = NewswireFeed.story(10 + offset) else { continue }
            story["thumbnail_standard"] = .string(url)
            stories.append(.object(story))
        }
        server = try TestServer(document: NewswireFeed.document(stories))
    }

    /// What each story title should show: the placeholder or its own picture.
    static func expectedSource(title: String) -> String? {
        guard let number = Int(title.replacingOccurrences(of: "Story number ", with: "")) else { return nil }
        switch number {
        case 0..<6: return number % 3 == 0 ? placeholder : picture
        case 10: return broken  // a safe URL: the browser finds out it is broken
        default: return placeholder
        }
    }

    @Test(arguments: ["/", "/kiosk"])
    func storiesWithoutAUsableThumbnailShowThePlaceholder(path: String) async throws {
        let entries = StoryEntry.all(in: try await HTTPTestClient.get(port: server.port, path).text)
        // The list shows all 11 stories; the kiosk the newest few.
        #expect(path == "/" ? entries.count == 11 : !entries.isEmpty, "\(entries.count) stories")
        for entry in entries {
            let expected = try #require(Self.expectedSource(title: entry.title), "\(entry)")
            #expect(entry.imageSource == expected, "\(path): \(entry)")
            // A real picture names the placeholder to fall back on if it fails to load.
            if expected != Self.placeholder {
                #expect(entry.imageFallback == Self.placeholder, "\(path): \(entry)")
            }
        }
        // The placeholder is a real image, served from Public/.
        let image = try await HTTPTestClient.get(port: server.port, Self.placeholder)
        #expect(image.status == 200)
        #expect(image.headers["content-type"] == "image/svg+xml")
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: TestServer.publicDirectory + "/placeholder.svg"))
        #expect(image.body == [UInt8](onDisk))
    }

    @Test func unsafeThumbnailsNeverReachTheMarkup() async throws {
        for path in ["/", "/kiosk"] {
            let html = try await HTTPTestClient.get(port: server.port, path).text
            for url in Self.unsafe {
                #expect(!html.contains("src=\"" + HTMLText.escaped(url)), "\(path): \(url)")
            }
        }
    }

    @Test(.enabled(if: WebDriver.isAvailable, "needs chromium and chromedriver"))
    func inABrowserABrokenThumbnailFallsBackToThePlaceholder() async throws {
        try await WebDriver.withSession { browser in
            try await browser.open("http://127.0.0.1:\(server.port)/")
            let source = """
                var img = Array.from(document.querySelectorAll('#stories > li')).filter(function (li) {
                  return li.querySelector('.story-title').textContent === 'Story number 10';
                })[0].querySelector('img');
                """
            #expect(
                try await browser.waitFor(
                    source + "return img.getAttribute('src') === '\(Self.placeholder)' && img.naturalWidth > 0;",
                    seconds: 15))
        }
    }
}
