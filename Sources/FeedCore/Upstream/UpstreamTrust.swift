import Foundation
import NIOSSL

/// What an `https` or `wss` upstream's certificate is verified against: the system's CA
/// store plus the certificates of a PEM file (`--ca-file`). The command line asks
/// ``problem(withCAFile:)`` before starting; ``UpstreamConnection`` makes the TLS settings
/// with ``tlsConfiguration(caFile:)``, which throws on the same problem.
public enum UpstreamTrust {
    /// `nil` when `path` is a readable PEM file with at least one certificate, else why not.
    public static func problem(withCAFile path: String) -> String? {
        guard FileManager.default.isReadableFile(atPath: path) else { return "cannot read '\(path)'" }
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            return certificates.isEmpty ? "'\(path)' holds no PEM certificate" : nil
        } catch {
            return "'\(path)' is not a PEM certificate file"
        }
    }

    /// The client TLS settings: the system's CA store plus the certificates in `caFile`.
    static func tlsConfiguration(caFile: String?) throws(UpstreamError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw .unreadableCAFile(caFile)
            }
        }
        return tls
    }
}
