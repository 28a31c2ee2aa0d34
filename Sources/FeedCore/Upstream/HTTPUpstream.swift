import AsyncHTTPClient
import NIOCore
import NIOSSL

/// A transport over AsyncHTTPClient (SSE, polling): its resource is the client, made from
/// its configuration when the connection loop starts and shut down when it ends.
protocol HTTPTransport: UpstreamTransport where Resources == HTTPClient {
    var clientConfiguration: HTTPClient.Configuration { get }
}

extension HTTPTransport {
    func makeResources() -> HTTPClient {
        HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
    }

    func release(_ client: HTTPClient) async {
        try? await client.shutdown()
    }
}

/// The HTTP edge the SSE and polling transports share: one client configuration, and a
/// request that follows redirects per ``UpstreamRedirects``.
enum HTTPUpstream {
    /// TLS with the system's CA store plus `caFile`, connect and read timeouts from
    /// `readTimeout`, HTTP/1.1, no redirects (followed and checked by
    /// ``request(_:redirects:deadline:session:headers:)``), no silent connection retries.
    static func clientConfiguration(tls: TLSConfiguration, readTimeout: Duration) -> HTTPClient.Configuration {
        let timeout = HTTPClient.Configuration.Timeout(
            connect: timeAmount(min(.seconds(10), readTimeout)), read: timeAmount(readTimeout))
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: timeout)
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Asks `redirects.url` (a GET, or a POST of ``UpstreamRedirects/body``), following
    /// redirects (each hop logged with its URL redacted) until an answer that is not one;
    /// `headers` gives each hop's request headers.
    static func request(
        _ client: HTTPClient, redirects: inout UpstreamRedirects, deadline: NIODeadline, session: UpstreamSession,
        headers: (UpstreamRedirects) -> [(name: String, value: String)]
    ) async throws -> HTTPClientResponse {
        while true {
            var request = HTTPClientRequest(url: redirects.url.absoluteString)
            for header in headers(redirects) { request.headers.add(name: header.name, value: header.value) }
            if let body = redirects.body {
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: body))
            }
            let response = try await client.execute(request, deadline: deadline, logger: session.libraryLogger)
            let status = Int(response.status.code)
            guard UpstreamRedirects.isRedirect(status) else { return response }
            try redirects.follow(status: status, location: response.headers.first(name: "Location"))
            session.logger.debug(
                "upstream: redirect \(status) to \(URLRedaction.redacted(redirects.url.absoluteString))")
        }
    }

    /// How long an error answer's body is waited for, for its reason: the next attempt is
    /// not held up by a body that trickles.
    static let reasonWait: Duration = .seconds(2)

    /// What the body of `response`, an error answer (``PollingProtocol/wantsReason(status:)``),
    /// says went wrong (``UpstreamAnswerReason``, the request's secrets redacted), and the
    /// bytes read; no reason when it says nothing in words, is larger than
    /// ``UpstreamAnswerReason/maxBodyBytes`` or takes longer than ``reasonWait``.
    static func reason(of response: HTTPClientResponse, session: UpstreamSession) async -> (
        reason: String?, bytes: Int
    ) {
        let body = await withTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                guard let buffer = try? await response.body.collect(upTo: UpstreamAnswerReason.maxBodyBytes) else {
                    return nil
                }
                return Array(buffer.readableBytesView)
            }
            group.addTask {
                try? await Task.sleep(for: reasonWait)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let body else { return (nil, 0) }
        let reason = UpstreamAnswerReason.reason(
            in: body, contentType: response.headers.first(name: "Content-Type"), secrets: session.endpoint.secrets)
        return (reason, body.count)
    }

    /// A duration as NIO's `TimeAmount`, between 1 ns and one year (no overflow for huge
    /// values).
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let year = Duration.seconds(365 * 24 * 3600)
        let clamped = min(max(duration, .nanoseconds(1)), year)
        return .nanoseconds(Int64(clamped.saturatingNanoseconds))
    }
}
