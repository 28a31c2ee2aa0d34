/// Why ``JSONTextSplitter`` stopped.
public enum JSONTextSplitterError: Error, Equatable, CustomStringConvertible {
    /// One text was longer than the limit, in bytes.
    case textTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .textTooLarge(let limit): return "a JSON text exceeded \(limit) bytes"
        }
    }
}
