import AsyncHTTPClient
import Foundation
import NIOSSL

/// Anything that feeds the ``FeedStore`` from upstream and reports what happens to it as
/// ``UpstreamEvent``s: the SSE subscription (``UpstreamConnection``) or the poller
/// (``PollingConnection``). `/readyz`, the status badge, `/stats` and the metrics read
/// only this.
public protocol UpstreamSource: AnyObject, Sendable {
    /// Where the source publishes its events, and the status they fold to.
    var statusPublisher: UpstreamStatusPublisher { get }
    /// Works until the task is cancelled, then publishes ``UpstreamEvent/stopped`` and
    /// releases its resources.
    func run() async
}

extension UpstreamSource {
    /// The current status: every event so far, folded.
    public var status: UpstreamStatus { statusPublisher.status }

    /// Calls `observer` with every event from now on and the status after it (on the
    /// source's task).
    public func observe(_ observer: @escaping UpstreamStatusPublisher.Observer) {
        statusPublisher.observe(observer)
    }
}

extension UpstreamConnection: UpstreamSource {}

/// Checks on upstream settings that the command line validates before starting.
public enum UpstreamSettings {
    /// `nil` when `path` is a readable PEM file with at least one certificate, else why not.
    public static func problemWithCAFile(_ path: String) -> String? {
        guard FileManager.default.isReadableFile(atPath: path) else { return "cannot read '\(path)'" }
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            return certificates.isEmpty ? "'\(path)' holds no PEM certificate" : nil
        } catch {
            return "'\(path)' is not a PEM certificate file"
        }
    }

    /// `nil` when `url` is an absolute http or https URL with a host, else why not.
    public static func problemWithURL(_ url: String) -> String? {
        UpstreamConnection.absoluteHTTPURL(url) == nil ? "'\(url)' is not an absolute http or https URL" : nil
    }

    /// `nil` when `name` and `value` can be sent as an HTTP request header, else why not.
    public static func problemWithHeader(name: String, value: String) -> String? {
        guard UpstreamConnection.isToken(name) else { return "'\(name)' is not a valid header name" }
        guard UpstreamConnection.isValidHeaderValue(value) else {
            return "the value of '\(name)' has control characters"
        }
        return nil
    }

    /// `url` fit to show and to store: without user name and password, and with the value
    /// of every query parameter whose name suggests a secret (`api-key`, `token`, …)
    /// replaced by `REDACTED`.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.user = nil
        components.password = nil
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                let name = item.name.lowercased()
                let secret = ["key", "token", "secret", "password", "passwd", "auth", "signature", "sig", "credential"]
                    .contains { name.contains($0) }
                return secret && item.value != nil ? URLQueryItem(name: item.name, value: "REDACTED") : item
            }
        }
        return components.string ?? url
    }

    /// The HTTP client settings both upstream kinds use: TLS with the system's CA store
    /// plus `caFile`, connect and read timeouts from `readTimeout`, HTTP/1.1, no redirects
    /// (followed and checked by the caller), no silent connection retries.
    static func clientConfiguration(caFile: String?, readTimeout: Duration) throws(UpstreamError)
        -> HTTPClient.Configuration
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw .transport("cannot read CA file \(caFile): \(error)")
            }
        }
        let timeout = HTTPClient.Configuration.Timeout(
            connect: UpstreamConnection.timeAmount(min(.seconds(10), readTimeout)),
            read: UpstreamConnection.timeAmount(readTimeout))
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: timeout)
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }
}
