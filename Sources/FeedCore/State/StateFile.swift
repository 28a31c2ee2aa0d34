import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state file (`--state-file PATH`): the mirror and its id, so that a restarted feedweb
/// shows the last known state (marked stale) before upstream answers, and — after a clean
/// shutdown — goes on with the same ids.
///
/// Format, versioned JSON on one line:
/// `{"format":1,"seq":N,"saved_at":"2025-01-01T12:00:00Z","source":"…","clean":true,"epoch":"…","document":{…}}`
/// — `source` names the feed it came from (mode and URL without credentials), so that a
/// file written for another feed is not shown as this one's; `clean` is true only in the
/// file written at a clean shutdown, when no change after `seq` can have been sent, and
/// `epoch` is then the epoch of the ids sent. (Files of earlier versions have neither:
/// they are read as not clean.)
///
/// Writes are atomic: the bytes go to a temporary file in the same directory (mode 0600:
/// the feed may be private), which is fsynced, renamed over `path`, and the directory is
/// fsynced; a crash leaves either the old file or the new one, never a mix.
public struct StateFile: Sendable {
    /// The format this version writes and reads.
    public static let format = 1
    /// The largest file ``load()`` reads.
    public static let maxBytes = 1 << 30

    /// What a state file holds.
    public struct Contents: Sendable, Equatable {
        public var seq: UInt64
        /// The epoch of the ids handed out with it (`nil` when the file does not say).
        public var epoch: String?
        /// Whether it was written at a clean shutdown: no change after `seq` was sent.
        public var clean: Bool
        /// When it was written (`nil` when the file does not say).
        public var savedAt: Date?
        /// The feed it came from (`nil` when the file does not say).
        public var source: String?
        public var document: JSONValue

        public init(
            seq: UInt64, epoch: String? = nil, clean: Bool = false, savedAt: Date?, source: String?,
            document: JSONValue
        ) {
            self.seq = seq
            self.epoch = epoch
            self.clean = clean
            self.savedAt = savedAt
            self.source = source
            self.document = document
        }

        /// The id to go on from after a restart: only a clean shutdown's, and only when the
        /// file names its epoch.
        public var resumableID: EventID? {
            guard clean, let epoch, EventID.isValidEpoch(epoch) else { return nil }
            return EventID(epoch: epoch, seq: seq)
        }
    }

    /// Why a state file could not be read or written.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    public let path: String

    public init(path: String) {
        self.path = path
    }

    // MARK: - Encoding

    /// The file's bytes for a document already serialized as `encodedDocument`; `clean`
    /// only for the file written at a clean shutdown (see the type's notes).
    public static func encode(
        seq: UInt64, epoch: String? = nil, clean: Bool = false, savedAt: Date, source: String,
        encodedDocument: [UInt8]
    ) -> [UInt8] {
        var members: JSONObject = [
            "format": .int(Int64(format)),
            "seq": .int(Int64(clamping: seq)),
            "saved_at": .string(savedAt.formatted(Date.ISO8601FormatStyle())),
            "source": .string(source),
            "clean": .bool(clean),
        ]
        if let epoch { members["epoch"] = .string(epoch) }
        let head = JSONValue.object(members).serializedBytes()
        // `{…head…,"document":DOCUMENT}\n`: the head without its closing brace.
        return head.dropLast() + Array(#","document":"#.utf8) + encodedDocument + Array("}\n".utf8)
    }

    /// Reads a state file's bytes; throws ``Failure`` saying what is wrong with them.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> Contents {
        guard !bytes.isEmpty else { throw Failure("the file is empty") }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw Failure("not JSON (truncated or corrupt): \(error)")
        }
        guard case .object(let members) = value else { throw Failure("not a JSON object") }
        guard let format = members["format"]?.int64Value else { throw Failure("no format number") }
        guard format == Int64(Self.format) else { throw Failure("format \(format) is not supported") }
        guard let seq = members["seq"]?.int64Value, seq >= 0 else { throw Failure("no valid seq") }
        guard let document = members["document"] else { throw Failure("no document") }
        let savedAt = members["saved_at"]?.stringValue.flatMap { try? Date($0, strategy: Date.ISO8601FormatStyle()) }
        return Contents(
            seq: UInt64(seq), epoch: members["epoch"]?.stringValue, clean: members["clean"] == .bool(true),
            savedAt: savedAt, source: members["source"]?.stringValue, document: document)
    }

    // MARK: - Reading

    /// The file's contents; `nil` when there is no file; throws ``Failure`` when it cannot
    /// be read or is not a valid state file.
    public func load() throws(Failure) -> Contents? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Failure("cannot open: \(Self.describe(code))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure("cannot stat: \(Self.describe(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure("not a regular file") }
        guard info.st_size <= Self.maxBytes else { throw Failure("larger than \(Self.maxBytes) bytes") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("cannot read: \(Self.describe(errno))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            guard bytes.count <= Self.maxBytes else { throw Failure("larger than \(Self.maxBytes) bytes") }
        }
        return try Self.decode(bytes)
    }

    // MARK: - Writing

    /// Writes the state atomically (temporary file, fsync, rename, fsync of the directory);
    /// `clean` only at a clean shutdown (see the type's notes).
    public func save(
        seq: UInt64, epoch: String? = nil, clean: Bool = false, savedAt: Date = Date(), source: String,
        encodedDocument: [UInt8]
    ) throws(Failure) {
        try replace(
            with: Self.encode(
                seq: seq, epoch: epoch, clean: clean, savedAt: savedAt, source: source,
                encodedDocument: encodedDocument))
    }

    /// Replaces the file with `bytes` atomically.
    public func replace(with bytes: [UInt8]) throws(Failure) {
        let directory = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = (directory == "/" ? "" : directory) + "/.\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure("cannot create \(temporary): \(Self.describe(errno))") }
        var failure = Self.writeAll(bytes, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot fsync: \(Self.describe(errno))" }
        if close(descriptor) != 0, failure == nil { failure = "cannot close: \(Self.describe(errno))" }
        if failure == nil, rename(temporary, path) != 0 {
            failure = "cannot rename it to \(path): \(Self.describe(errno))"
        }
        if let failure {
            unlink(temporary)
            throw Failure("\(temporary): \(failure)")
        }
        // The rename is only durable once the directory is on disk too.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Writes all of `bytes`; the error in words, or `nil`.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(descriptor, base + offset, raw.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return "cannot write: \(describe(errno))"
            }
            if count == 0 { return "cannot write: no progress" }
            offset += count
        }
        return nil
    }

    /// The directory part of `path` (`.` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
