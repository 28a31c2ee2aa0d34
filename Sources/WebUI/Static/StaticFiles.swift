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
    /// What the directory looked like when the files were read: a rescan that finds the
    /// same listing reads nothing.
    let listing: Listing

    /// Every regular file below a directory with what `lstat` says of it, sorted by path.
    ///
    /// A file rewritten in place changes its size or modification time (nanoseconds); one
    /// replaced by a rename changes its inode. Listing costs one `lstat` per file, so the
    /// watcher can look every 2 s without reading (and allocating) the files themselves.
    struct Listing: Equatable, Sendable {
        struct Entry: Equatable, Sendable {
            /// The path below the directory, e.g. `demo/globe.svg`.
            let path: String
            let inode: UInt64
            /// Bytes.
            let size: Int64
            /// Seconds and nanoseconds since the epoch.
            let modified: timespec

            static func == (a: Entry, b: Entry) -> Bool {
                a.path == b.path && a.inode == b.inode && a.size == b.size
                    && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            }
        }

        let entries: [Entry]

        /// Lists `directory` (standardized), not following symlinks, skipping dot-names.
        init(of directory: String) {
            let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.path
            var entries: [Entry] = []
            Self.walk(root, relative: "", into: &entries)
            self.entries = entries.sorted { $0.path < $1.path }
        }

        private static func walk(_ directory: String, relative: String, into entries: inout [Entry]) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            for name in names where !name.hasPrefix(".") {
                let full = directory + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    entries.append(
                        Entry(path: path, inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
                    )
                case S_IFDIR: walk(full, relative: path, into: &entries)
                default: continue  // symlinks, sockets, devices: never served
                }
            }
        }
    }

    /// Reads the files `listing` names below `directory` (by default, what is there now).
    init(directory: String, listing: Listing? = nil, securityHeaders: [(String, String)], logger: Logger) {
        self.directory = directory
        let listing = listing ?? Listing(of: directory)
        self.listing = listing
        var files: [String: File] = [:]
        var combined: UInt64 = 0xcbf2_9ce4_8422_2325
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        for relative in listing.entries.map(\.path) {
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
        if files.isEmpty {
            logger.warning(
                """
                no static files found in \(directory): the pages are served without their script \
                and style, so they will not update live; name the folder with --public-dir \
                (make install puts it in PREFIX/\(PublicDirectory.installedPath))
                """)
        }
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
