extension ItemShapeDetector {
    /// Words of a member's name that say it holds an amount of money (`amount_refunded`,
    /// `total_price`, `ending_balance`, `unitAmount`).
    static let moneyWords: Set<String> = [
        "amount", "total", "subtotal", "tax", "fee", "fees", "balance", "price", "cost", "revenue", "sales",
        "paid", "due", "refunded", "captured", "spend", "spent", "income", "payout", "net", "gross", "charge",
        "discount", "tip", "budget", "earnings", "mrr", "arr",
    ]

    /// `columns` with each amount of money shown as one (``ItemColumn/Format/money(_:)``): a
    /// column of numbers whose name says money (``moneyWords``; `value` inside an object
    /// whose name does, as Adyen's and PayPal's `amount.value`), with a currency beside it
    /// in the same object (``Currency/beside(_:in:)``) in 9 of 10 `sampled` items that have
    /// it. Its values count the currency's minor unit when they are all whole JSON numbers
    /// and the currency is written in lower case (Stripe's `usd`: every Stripe amount is
    /// in cents) or the name says `amount` (Square's `amount_money.amount`, Adyen's
    /// `amount.value`); else whole units (PayPal's `"20.00"`, a balance's `1520.3`). The
    /// currency's own column is left out: each amount shows it; an amount's `value` is
    /// headed by its object's name (`Amount`). An id, the key's column, never.
    static func withMoney(_ columns: [ItemColumn], in sampled: [JSONValue], key: JSONPointer?) -> [ItemColumn] {
        var columns = columns
        var currencies = Set<JSONPointer>()
        for index in columns.indices {
            let column = columns[index]
            guard column.format == .number || column.format == .automatic, column.pointer != key,
                let parent = column.pointer.parent, !isIDName(column.pointer.memberName)
            else { continue }
            let words = moneyNameWords(column.pointer)
            guard !moneyWords.isDisjoint(with: words) else { continue }
            guard let found = currency(beside: column.pointer, parent: parent, in: sampled) else { continue }
            let minor = found.allWhole && (found.lowerCase || words.contains("amount"))
            columns[index].format = .money(minor ? .minor : .whole)
            // Adyen's `amount.value` is the amount.
            if column.pointer.memberName == "value", column.pointer.tokens.count >= 2 {
                columns[index].label = label(for: column.pointer.tokens[column.pointer.tokens.count - 2])
            }
            currencies.insert(found.pointer)
        }
        columns.removeAll { currencies.contains($0.pointer) }
        return columns
    }

    /// The words of the member at `pointer`'s name, and of its object's name when the
    /// member is only its `value`.
    private static func moneyNameWords(_ pointer: JSONPointer) -> Set<String> {
        func words(_ name: String) -> [String] {
            label(for: name).lowercased().split(separator: " ").map(String.init)
        }
        let name = pointer.tokens.last ?? ""
        var all = Set(words(name))
        if name.lowercased() == "value", pointer.tokens.count >= 2 {
            all.formUnion(words(pointer.tokens[pointer.tokens.count - 2]))
        }
        return all
    }

    /// Where the currency of the amounts at `pointer` is, when 9 in 10 of the `sampled` items
    /// with a number there name one beside it; whether every amount is a whole JSON number,
    /// and every currency written in lower case. `nil` when a value there is not a number.
    private static func currency(
        beside pointer: JSONPointer, parent: JSONPointer, in sampled: [JSONValue]
    ) -> (pointer: JSONPointer, allWhole: Bool, lowerCase: Bool)? {
        var (amounts, priced, allWhole, lowerCase) = (0, 0, true, true)
        var member: String?
        for item in sampled {
            guard let value = item.value(at: pointer), !value.isNull else { continue }
            switch value {
            case .int: break
            case .double: allWhole = false
            case .string(let text) where writtenNumber(text) != nil: allWhole = false
            default: return nil
            }
            amounts += 1
            guard case .object(let members)? = item.value(at: parent), let name = Currency.memberName(in: members),
                let code = members[name]?.stringValue, Currency(code: code) != nil
            else { continue }
            priced += 1
            if code != code.lowercased() { lowerCase = false }
            member = member ?? name
        }
        guard amounts > 0, priced * 10 >= amounts * 9, let member else { return nil }
        return (parent.appending(member), allWhole, lowerCase)
    }
}
