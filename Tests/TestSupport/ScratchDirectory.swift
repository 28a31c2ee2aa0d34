import Foundation

/// A new, empty directory under the system's temporary directory, removed with everything
/// in it when this object goes away (so a test leaves nothing behind, whether it passes,
/// fails or throws).
public final class ScratchDirectory: Sendable {
    public let path: String
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Creates `TMPDIR/feedweb-NAME-UUID`.
    public init(_ name: String) throws {
        path = NSTemporaryDirectory() + "feedweb-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `path/name`.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
