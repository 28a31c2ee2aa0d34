import FeedCore
import FuzzSupport

/// The JSON parser on any bytes: it throws or returns a value, never traps; a value it
/// returns serializes to text that parses back to the same value and serializes to the
/// same bytes again, and ``JSONByteCount`` predicts that text's length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let text = value.serializedBytes()
    invariant(JSONByteCount.of(value) == text.count, "JSONByteCount differs from the serialized length")
    let again: JSONValue
    do {
        again = try JSONParser.parse(text)
    } catch {
        invariant(false, "the serializer's output does not parse: \(error)")
        return 0
    }
    invariant(again == value, "a value changed through serialize and parse")
    invariant(again.serializedBytes() == text, "serializing a reparsed value gave other bytes")
    let sorted = value.serializedBytes(sortedKeys: true)
    invariant((try? JSONParser.parse(sorted)) == value, "sorted-key output is not the same value")
    return 0
}
