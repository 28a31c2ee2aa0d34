import AsyncHTTPClient
import Foundation
import NIOCore

extension KubernetesList {
    /// Lists the objects the watch `url` covers, page by page, and makes them the kept items
    /// (``FeedStore/replaceItems(_:listedIDs:idAt:keep:position:arrival:)``): the kept
    /// objects the list lacks go. Only the objects that can be kept are held meanwhile
    /// (``KubernetesListing``). A page larger than `--max-event-bytes` is asked for again
    /// with half as many objects, down to ``smallestPageLimit``. Returns the position the
    /// watch then resumes from (the list's `resourceVersion`,
    /// ``UpstreamPosition/encode(_:)``), or `nil` when the list could not be read: an answer
    /// other than 200, a page that is no list or too large at the smallest limit, a
    /// failure, or more than ``maxPages`` pages. That is logged, and the watch starts over as
    /// it would have without a list.
    static func fetch(
        _ url: URL, keep: Int, client: HTTPClient, session: UpstreamSession
    ) async -> String? {
        let shown = session.shownURL
        var listing = KubernetesListing(
            keptIDs: session.store.keptIDs(at: KubernetesWatch.idPath), idAt: KubernetesWatch.idPath, keep: keep)
        var token: String?
        var version = ""
        var limit = pageLimit
        var pages = 0
        do {
            while pages < maxPages {
                switch try await Self.page(after: token, of: url, limit: limit, client: client, session: session) {
                case .refused:
                    return nil
                case .tooLarge:
                    let bytes = session.configuration.maxEventBytes
                    guard let smaller = smallerLimit(than: limit) else {
                        session.logger.warning(
                            "upstream: a page of \(limit) objects of the list before watching exceeds \(bytes) bytes (--max-event-bytes); watching without it"
                        )
                        return nil
                    }
                    session.logger.info(
                        "upstream: a page of \(limit) objects of the list exceeds \(bytes) bytes (--max-event-bytes); asking for \(smaller) a page"
                    )
                    limit = smaller
                case .page(let page):
                    pages += 1
                    listing.add(page.items)
                    version = page.resourceVersion
                    token = page.next
                    if token == nil {
                        let position = UpstreamPosition.encode(.init(name: "resourceVersion", value: version))
                        session.store.replaceItems(
                            listing.items, listedIDs: listing.listedIDs, idAt: KubernetesWatch.idPath, keep: keep,
                            position: position)
                        session.logger.info(
                            "upstream: listed \(listing.count) objects at resourceVersion \(version); the watch starts there"
                        )
                        return position
                    }
                }
            }
        } catch {
            // A connection being stopped says nothing of the upstream.
            if !Task.isCancelled {
                session.logger.warning(
                    "upstream: listing \(shown) before watching failed (\(error)); watching without it")
            }
            return nil
        }
        session.logger.warning(
            "upstream: the list of \(shown) has more than \(maxPages) pages; watching without it")
        return nil
    }

    /// What asking for one page of the list gave.
    private enum PageAnswer {
        case page(Page)
        /// Larger than `--max-event-bytes`.
        case tooLarge
        /// Not a page: another status, or no list (logged).
        case refused
    }

    /// The list's page after `token`, of at most `limit` objects.
    private static func page(
        after token: String?, of url: URL, limit: Int, client: HTTPClient, session: UpstreamSession
    ) async throws -> PageAnswer {
        var redirects = UpstreamRedirects(start: pageURL(of: url, continuing: token, limit: limit))
        let configured = session.endpoint.headers
        let configuredNames = Set(configured.map { $0.name.lowercased() })
        let deadline = NIODeadline.now() + HTTPUpstream.timeAmount(session.configuration.readTimeout)
        let response = try await HTTPUpstream.request(
            client, redirects: &redirects, deadline: deadline, session: session
        ) {
            redirects in
            (configuredNames.contains("accept") ? [] : [("Accept", "application/json")]) + redirects.headers(configured)
        }
        let code = Int(response.status.code)
        guard code == 200 else {
            let (reason, bytes) = await HTTPUpstream.reason(of: response, session: session)
            session.publish(.received(bytes: UInt64(bytes)))
            session.logger.warning(
                "upstream: listing before watching answered \(code)\(reason.map { " (\($0))" } ?? ""); watching without it"
            )
            return .refused
        }
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: session.configuration.maxEventBytes)
        } catch is NIOTooManyBytesError {
            return .tooLarge
        }
        session.publish(.received(bytes: UInt64(buffer.readableBytes)))
        guard let value = try? JSONValue(parsing: String(decoding: buffer.readableBytesView, as: UTF8.self)),
            let page = page(value)
        else {
            session.logger.warning(
                "upstream: the answer to listing before watching is no Kubernetes list; watching without it")
            return .refused
        }
        return .page(page)
    }
}
