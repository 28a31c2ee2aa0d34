/// Where a change brings a number with more decimals than its column shows (a price's
/// `50.525` in a column found at two, a change's `-0.73` in a column of zeros): the
/// columns with their ``ItemColumn/decimals`` raised, so that the points line up again.
///
/// Invariants: a column's decimals only rise, and never past ``NumberDecimals/mostDecimals``
/// (six but for a column of numbers below a thousandth), so a feed raises each column's at
/// most that many times; only columns that keep one precision
/// (``ItemColumn/keepsOnePrecision``) are read, and only items that are an array's
/// elements, an object's members or a table's rows (whose values are named by position;
/// named values are of many kinds).
public enum ColumnDecimalsWatch {
    /// `columns` with the decimals of each raised to the most that a value `patch` gives it
    /// was written with, for the items at `itemsPath` laid out as `form`; `document` is the
    /// document after the patch, read where an operation moves or copies a value, or gives
    /// the items anew. `nil` when no column's decimals rise.
    public static func widened(
        _ columns: [ItemColumn], by patch: JSONPatch, itemsPath: JSONPointer, form: ItemsForm,
        document: (JSONPointer) -> JSONValue?
    ) -> [ItemColumn]? {
        guard watches(form), columns.contains(where: \.keepsOnePrecision) else { return nil }
        var raised = columns
        var rose = false
        func note(_ value: JSONValue?, at index: Int) {
            guard let value, let written = NumberDecimals.written(value), written > raised[index].decimals else {
                return
            }
            raised[index].decimals = written
            rose = true
        }
        let depth = itemsPath.tokens.count
        for operation in patch.operations {
            let path = operation.path
            guard var value = operation.valueLeft(in: document), !value.isNull else { continue }
            if path == itemsPath || path.isProperPrefix(of: itemsPath) {
                // The items themselves, or what holds them, given anew.
                if let all = widened(raised, byItemsOf: document(itemsPath), form: form) {
                    raised = all
                    rose = true
                }
                continue
            }
            guard itemsPath.isProperPrefix(of: path) else { continue }
            // Within an item: the columns at or below the path, each its value's part.
            var inside = path.tokens[(depth + 1)...]
            if case .rows(let names, let header) = form {
                // A row keeps its values by position: the header's, and what a row's
                // position names, by their columns' names.
                if header && path.tokens[depth] == "0" { continue }
                switch inside.count {
                case 0: value = ItemExtractor.rows(of: .array([value]), names: names, header: false)?.first ?? value
                case 1:
                    guard let position = Int(inside[inside.startIndex]), names.indices.contains(position) else {
                        continue
                    }
                    inside = [names[position]]
                default: continue
                }
            }
            for index in raised.indices where raised[index].keepsOnePrecision {
                let tokens = raised[index].pointer.tokens
                guard tokens.count >= inside.count, tokens.starts(with: inside) else { continue }
                note(value.value(at: JSONPointer(tokens: Array(tokens[inside.count...]))), at: index)
            }
        }
        return rose ? raised : nil
    }

    /// `columns` with the decimals of each raised to the most that the items `collection`
    /// holds (laid out as `form`) were written with there: what a whole new document
    /// brings. `nil` when no column's decimals rise.
    public static func widened(_ columns: [ItemColumn], byItemsOf collection: JSONValue?, form: ItemsForm)
        -> [ItemColumn]?
    {
        guard watches(form), columns.contains(where: \.keepsOnePrecision) else { return nil }
        var raised = columns
        var rose = false
        for item in ItemExtractor.elements(of: collection, form: form) ?? [] {
            for index in raised.indices where raised[index].keepsOnePrecision {
                guard let value = item.value(at: raised[index].pointer), let written = NumberDecimals.written(value),
                    written > raised[index].decimals
                else { continue }
                raised[index].decimals = written
                rose = true
            }
        }
        return rose ? raised : nil
    }

    /// Whether items laid out as `form` keep each value at their column's pointer below
    /// their own place in the collection (a row at its position's name).
    static func watches(_ form: ItemsForm) -> Bool {
        switch form {
        case .elements, .members, .rows: true
        case .series, .values, .texts: false
        }
    }
}

extension ItemProfile {
    /// This profile with each column's decimals at least those of `earlier`'s column at
    /// the same pointer: a reading worked out again (from the first items) keeps what
    /// changes raised (``ColumnDecimalsWatch``), so that decimals only rise.
    func keepingDecimals(of earlier: ItemProfile) -> ItemProfile {
        var kept = self
        let before = Dictionary(earlier.columns.map { ($0.pointer, $0.decimals) }, uniquingKeysWith: max)
        for index in kept.columns.indices {
            kept.columns[index].decimals = max(kept.columns[index].decimals, before[kept.columns[index].pointer] ?? 0)
        }
        return kept
    }
}
