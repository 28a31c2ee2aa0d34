import FeedCore
import FuzzSupport

/// JSON Pointer parsing on any text: it throws or returns a pointer, never traps; a pointer
/// prints as text that parses back to the same tokens; looking it up in a document never
/// traps; and tokens taken from the input (split at NUL) survive escaping and parsing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPointer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)
    if let pointer = try? JSONPointer(text) {
        invariant(pointer.description == text, "a parsed pointer prints differently")
        invariant((try? JSONPointer(pointer.description)) == pointer, "a pointer's text parses to other tokens")
        _ = lookupDocument.value(at: pointer)
        for token in pointer.tokens { _ = JSONPointer.arrayIndex(token) }
        if let parent = pointer.parent {
            invariant(parent.isProperPrefix(of: pointer), "a pointer's parent is not its prefix")
        }
    }
    let tokens = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let built = JSONPointer(tokens: tokens)
    invariant((try? JSONPointer(built.description))?.tokens == tokens, "tokens changed through escaping")
    return 0
}

/// A document with objects, arrays and keys that need escaping, to look pointers up in.
let lookupDocument: JSONValue = longLived {
    let text = #"{"a":[{"b":1},[2,3],{"~":{"/":4}}],"":{"":5},"0":[null,true,"x"],"a/b":{"m~n":6}}"#
    return (try? JSONValue(parsing: text)) ?? .null
}
