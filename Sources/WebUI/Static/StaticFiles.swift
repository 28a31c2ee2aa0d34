import Foundation
import Logging

/// The files of `Public/`, loaded into memory at start and served under `/static/`.
///
/// Only regular files found by walking the directory (without following symlinks, and
/// skipping hidden names) can be served, so no request path can leave `Public/`: a path
/// is a key in this table or it is a 404. Each file has a strong ETag from its content
/// and a prepared 304.
final class StaticFiles: Sendable {
    struct File: Sendable {
        let ok: PreparedResponse
        let notModified: PreparedResponse
        let etag: String
    }

    /// Files by their path below `Public/` (e.g. `style.css`, `demo/globe.svg`).
    let files: [String: File]
    /// A hash of every file's path and content: changes whenever any file changes.
    let version: String
    /// The directory the files were read from.
    let directory: String

    init(directory: String, securityHeaders: [(String, String)], logger: Logger) {
        self.directory = directory
        var files: [String: File] = [:]
        var combined: UInt64 = 0xcbf2_9ce4_8422_2325
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let paths = Self.walk(root.path, relative: "")
        for relative in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: root.path + "/" + relative) else { continue }
            let bytes = [UInt8](data)
            let hash = Self.fnv1a(bytes)
            combined = (combined ^ hash ^ Self.fnv1a(Array(relative.utf8))) &* 0x0000_0100_0000_01b3
            let etag = "\"" + String(hash, radix: 36) + "\""
            let headers =
                [
                    ("Content-Type", Self.contentType(for: relative)),
                    ("Cache-Control", "public, max-age=3600"),
                    ("ETag", etag),
                ] + securityHeaders
            guard let ok = PreparedResponse(status: 200, body: bytes, headers: headers),
                let notModified = PreparedResponse(
                    status: 304, body: [], headers: headers.filter { $0.0 != "Content-Type" })
            else { continue }
            files[relative] = File(ok: ok, notModified: notModified, etag: etag)
        }
        if files.isEmpty { logger.warning("no static files found in \(directory)") }
        self.files = files
        self.version = String(combined, radix: 36)
    }

    /// The prepared response for `path` (below `/static/`), honouring `If-None-Match`.
    func response(for path: String, ifNoneMatch: String?) -> PreparedResponse? {
        guard let file = files[path] else { return nil }
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == file.etag || $0.trimmingCharacters(in: .whitespaces) == "*"
            })
        {
            return file.notModified
        }
        return file.ok
    }

    /// Regular files below `directory`, not following symlinks, skipping dot-names.
    private static func walk(_ directory: String, relative: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var result: [String] = []
        for name in names where !name.hasPrefix(".") {
            let full = directory + "/" + name
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: result.append(path)
            case S_IFDIR: result += walk(full, relative: path)
            default: continue  // symlinks, sockets, devices: never served
            }
        }
        return result
    }

    static func contentType(for path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html": return "text/html; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
