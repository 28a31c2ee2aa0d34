/// Stops the fuzzer with `message` when `condition` does not hold: libFuzzer reports it as
/// a crash and writes the input that caused it.
public func invariant(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        fatalError("invariant failed: \(message())", file: file, line: line)
    }
}
