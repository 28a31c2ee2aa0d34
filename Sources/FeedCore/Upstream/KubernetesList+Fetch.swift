import AsyncHTTPClient
import Foundation
import NIOCore

extension KubernetesList {
    /// Lists the objects the watch `url` covers, page by page, and makes them the kept items
    /// (``FeedStore/replaceItems(_:idAt:keep:position:arrival:)``): the kept objects the list
    /// lacks go. Returns the position the watch then resumes from (the list's
    /// `resourceVersion`, ``UpstreamPosition/encode(_:)``), or `nil` when the list could not
    /// be read: an answer other than 200, a page that is no list or larger than
    /// `--max-event-bytes`, a failure, or more than ``maxPages`` pages. That is logged, and
    /// the watch starts over as it would have without a list.
    static func fetch(
        _ url: URL, keep: Int, client: HTTPClient, session: UpstreamSession
    ) async -> String? {
        let shown = session.shownURL
        var items: [JSONValue] = []
        var token: String?
        var version = ""
        do {
            for _ in 0..<maxPages {
                guard let page = try await Self.page(after: token, of: url, client: client, session: session) else {
                    return nil
                }
                items.append(contentsOf: page.items)
                version = page.resourceVersion
                token = page.next
                if token == nil { break }
            }
        } catch {
            // A connection being stopped says nothing of the upstream.
            if !Task.isCancelled {
                session.logger.warning(
                    "upstream: listing \(shown) before watching failed (\(error)); watching without it")
            }
            return nil
        }
        guard token == nil else {
            session.logger.warning(
                "upstream: the list of \(shown) has more than \(maxPages) pages; watching without it")
            return nil
        }
        let position = UpstreamPosition.encode(.init(name: "resourceVersion", value: version))
        session.store.replaceItems(items, idAt: KubernetesWatch.idPath, keep: keep, position: position)
        session.logger.info(
            "upstream: listed \(items.count) objects at resourceVersion \(version); the watch starts there")
        return position
    }

    /// The list's page after `token`, or `nil` (logged) when the answer is not one.
    private static func page(
        after token: String?, of url: URL, client: HTTPClient, session: UpstreamSession
    ) async throws -> Page? {
        var redirects = UpstreamRedirects(start: pageURL(of: url, continuing: token))
        let configured = session.endpoint.headers
        let configuredNames = Set(configured.map { $0.name.lowercased() })
        let deadline = NIODeadline.now() + HTTPUpstream.timeAmount(session.configuration.readTimeout)
        let response = try await HTTPUpstream.get(client, redirects: &redirects, deadline: deadline, session: session) {
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
            return nil
        }
        let limit = session.configuration.maxEventBytes
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            session.logger.warning(
                "upstream: a page of the list before watching exceeds \(limit) bytes (--max-event-bytes); watching without it"
            )
            return nil
        }
        session.publish(.received(bytes: UInt64(buffer.readableBytes)))
        guard let value = try? JSONValue(parsing: String(decoding: buffer.readableBytesView, as: UTF8.self)),
            let page = page(value)
        else {
            session.logger.warning(
                "upstream: the answer to listing before watching is no Kubernetes list; watching without it")
            return nil
        }
        return page
    }
}
