import FeedCore
import FuzzSupport

/// How a feed's first document is read, on any JSON: the items, their key, title, filter
/// and columns are found without trapping and in time linear in the document (the fuzzer's
/// timeout catches a quadratic search); a found reading has at most
/// ``ItemShapeDetector/maxColumns`` columns, each headed (but a member named by nothing),
/// and reads the same document into items with distinct keys; every text a cell might
/// shorten as a digest comes out shorter, and as HTML (``HTMLPlainText``) no longer; a size
/// written for people is a finite number of bytes; named values found are read; a watch of the items' members finds
/// nothing new in the same items.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemShapes(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let document = try? JSONValue(parsing: bytes) else { return 0 }
    let reading = ItemShapeDetector.reading(of: document, overrides: .init())
    guard reading.isDecided else { return 0 }
    let columns = reading.profile.columns
    invariant(columns.count <= ItemShapeDetector.maxColumns, "more columns than a table shows")
    for column in columns {
        let unnamed = column.pointer.tokens.last?.isEmpty ?? true
        invariant(!column.label.isEmpty || unnamed, "a column without a heading")
    }
    let items = ItemExtractor(profile: reading.profile).items(in: document)
    switch reading.profile.itemsForm {
    case .values: invariant(!items.isEmpty, "named values found, none read")
    case .texts: invariant(!items.isEmpty, "a list of texts found, none read")
    default: break
    }
    var keys = Set<String>()
    for item in items {
        invariant(keys.insert(item.key).inserted, "two items with one key")
        for column in columns {
            if column.format == .series, let series = ItemSeries(at: column.pointer, in: item.raw) {
                invariant(series.values.count <= ItemSeries.maximumPoints, "a series past its most points")
            }
            if case .tally(let tally) = column.format, let figure = tally.of(item.raw.value(at: column.pointer)) {
                invariant(figure.value.isFinite, "a tally that is no number")
                if tally.kind == .count {
                    invariant(figure.value <= Double(figure.of), "more objects say yes than there are")
                }
            }
            if case .money = column.format, let currency = Currency.beside(column.pointer, in: item.raw) {
                invariant(currency.code.utf8.count == 3, "a currency code not of three letters")
            }
            guard let text = item.raw.value(at: column.pointer)?.stringValue else { continue }
            if let bytes = ItemShapeDetector.writtenSize(text) {
                invariant(bytes.isFinite && bytes >= 0, "a size of no bytes")
            }
            if let short = ItemShapeDetector.shortDigest(text) {
                invariant(short.count < text.count, "a digest shortened to no shorter text")
            }
            // Text read as HTML comes out no longer than it went in.
            let plain = HTMLPlainText.plain(text)
            invariant(plain.unicodeScalars.count <= text.unicodeScalars.count, "HTML's text longer than the HTML")
            // Its blocks (a post's page): none empty or bounded by white space, none longer.
            for block in HTMLPlainText.blocks(text) {
                invariant(
                    !block.text.isEmpty && block.text.first?.isWhitespace == false
                        && block.text.last?.isWhitespace == false, "an empty or untrimmed block")
                invariant(block.text.unicodeScalars.count <= text.unicodeScalars.count, "a block longer than the HTML")
            }
        }
    }
    // A watch of the items' members finds nothing new in the same items.
    let collection = document.value(at: reading.profile.itemsPath)
    let watch = ItemMemberWatch(itemsOf: collection, form: reading.profile.itemsForm)
    if !watch.isSpent {
        invariant(
            watch.newMembers(inItemsOf: collection, form: reading.profile.itemsForm).isEmpty,
            "members new to a watch of the same items")
    }
    return 0
}
