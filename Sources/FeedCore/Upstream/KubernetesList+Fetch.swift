import AsyncHTTPClient
import Foundation
import NIOCore

extension KubernetesList {
    /// What listing gave.
    enum Outcome: Equatable {
        /// The list is put; the watch resumes at this position (the list's
        /// `resourceVersion`, ``UpstreamPosition/encode(_:)``).
        case listed(String)
        /// The API server asked to wait before asking again (an answer with `Retry-After`, a
        /// 429 of a busy server): the attempt ends, and the next lists again.
        case askedToWait(UpstreamError, Duration)
        /// The list cannot be read (logged): the watch starts over without it.
        case unavailable
    }

    /// Lists the objects the watch `url` covers, page by page, and makes them the kept items
    /// (``FeedStore/replaceItems(_:listedIDs:idAt:keep:position:arrival:)``): the kept
    /// objects the list lacks go. Only the objects that can be kept are held meanwhile
    /// (``KubernetesListing``). A page larger than `--max-event-bytes` is asked for again
    /// with half as many objects, down to ``smallestPageLimit``. Returns the position the
    /// watch then resumes from (``Outcome/listed(_:)``); ``Outcome/askedToWait(_:_:)`` when an
    /// answer asks to wait (``RetryAfter``); or ``Outcome/unavailable`` when the list could
    /// not be read: another answer than 200, a page that is no list or too large at the
    /// smallest limit, a failure, more than ``maxPages`` pages, or a `continue` token that
    /// expired (410) twice: once, the list starts over. That is logged, and the watch starts
    /// over as it would have without a list.
    static func fetch(
        _ url: URL, keep: Int, client: HTTPClient, session: UpstreamSession
    ) async -> Outcome {
        let shown = session.shownURL
        let keptIDs = session.store.keptIDs(at: KubernetesWatch.idPath)
        var listing = KubernetesListing(keptIDs: keptIDs, idAt: KubernetesWatch.idPath, keep: keep)
        var restarted = false
        var token: String?
        var version = ""
        var limit = pageLimit
        var pages = 0
        do {
            while pages < maxPages {
                switch try await Self.page(after: token, of: url, limit: limit, client: client, session: session) {
                case .refused:
                    return .unavailable
                case .askedToWait(let status, let wait):
                    return .askedToWait(.httpStatus(status), wait)
                case .continueExpired:
                    // The API server's answer to a token too old: the list starts over, once.
                    guard !restarted else {
                        session.logger.warning(
                            "upstream: the list's continue token expired again (410); watching without it")
                        return .unavailable
                    }
                    restarted = true
                    session.logger.info(
                        "upstream: the list's continue token expired (410); listing again from the start")
                    listing = KubernetesListing(keptIDs: keptIDs, idAt: KubernetesWatch.idPath, keep: keep)
                    token = nil
                case .tooLarge:
                    let bytes = session.configuration.maxEventBytes
                    guard let smaller = smallerLimit(than: limit) else {
                        session.logger.warning(
                            "upstream: a page of \(limit) objects of the list before watching exceeds \(bytes) bytes (--max-event-bytes); watching without it"
                        )
                        return .unavailable
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
                        return .listed(position)
                    }
                }
            }
        } catch {
            // A connection being stopped says nothing of the upstream.
            if !Task.isCancelled {
                session.logger.warning(
                    "upstream: listing \(shown) before watching failed (\(error)); watching without it")
            }
            return .unavailable
        }
        session.logger.warning(
            "upstream: the list of \(shown) has more than \(maxPages) pages; watching without it")
        return .unavailable
    }

    /// What asking for one page of the list gave.
    private enum PageAnswer {
        case page(Page)
        /// Larger than `--max-event-bytes`.
        case tooLarge
        /// Not a page: another status, or no list (logged).
        case refused
        /// Answered `status`, asking to wait (``RetryAfter``, logged).
        case askedToWait(status: Int, wait: Duration)
        /// Answered 410 Gone to a `continue` token: the list must start over.
        case continueExpired
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
        if code != 200,
            let wait = session.askedWait(status: code, headers: response.headers.map { ($0.name, $0.value) })
        {
            return .askedToWait(status: code, wait: wait)
        }
        if code == 410 && token != nil {
            let (_, bytes) = await HTTPUpstream.reason(of: response, session: session)
            session.publish(.received(bytes: UInt64(bytes)))
            return .continueExpired
        }
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
