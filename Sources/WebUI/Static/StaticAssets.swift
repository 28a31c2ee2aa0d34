import Foundation
import Logging
import NIOConcurrencyHelpers

/// The static files served under `/static/`: one ``StaticFiles`` table, swapped whole when
/// `Public/` changes.
final class StaticAssets: Sendable {
    /// Guards which table is served: read whole, replaced whole.
    ///
    /// A leaf: no other lock is taken while it is held. A rescan is done before taking it
    /// and telling the open pages to reload after releasing it.
    private let current: NIOLockedValueBox<StaticFiles>
    private let securityHeaders: [(String, String)]
    private let errors: ErrorResponses

    /// Serves `files`; a rescan reads the same directory and sends `securityHeaders` with
    /// every file; an unknown path gets `notFound`.
    init(files: StaticFiles, securityHeaders: [(String, String)], errors: ErrorResponses) {
        current = NIOLockedValueBox(files)
        self.securityHeaders = securityHeaders
        self.errors = errors
    }

    /// The table served now.
    var files: StaticFiles { current.withLockedValue { $0 } }

    /// The version of the files served now (pages link assets with it).
    var version: String { files.version }

    /// `/static/{path}`: the file at `path` below `Public/`, or 304 for a matching
    /// `If-None-Match`, or 404.
    func file(_ path: String, request: HTTPRequest) -> PreparedResponse {
        files.response(for: path, ifNoneMatch: request.header("If-None-Match")) ?? errors.notFound
    }

    /// Rescans `Public/`; when anything changed (and it is not empty), serves the new files.
    /// Returns their version when it did, else `nil`. Files are read only when the listing
    /// (paths, sizes, times, inodes) differs from the one served.
    func reloadIfChanged(logger: Logger) -> String? {
        let served = files
        let listing = StaticFiles.Listing(of: served.directory)
        guard listing != served.listing else { return nil }
        let fresh = StaticFiles(
            directory: served.directory, listing: listing, securityHeaders: securityHeaders, logger: logger)
        let changed = current.withLockedValue { current -> Bool in
            guard !fresh.files.isEmpty else { return false }
            // The same bytes under a new listing (a file touched): keep the listing, so the
            // next scan reads nothing, but nobody reloads.
            let changed = fresh.version != current.version
            current = fresh
            return changed
        }
        return changed ? fresh.version : nil
    }
}
