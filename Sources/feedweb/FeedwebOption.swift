import Foundation

/// One option of `feedweb`, written once, as data: its name (its environment variable
/// follows from it), what its value is, its help, its default as `--help` and README show
/// it, how often it may be given, and how its text is checked and kept in
/// ``FeedwebSettings``. ``FeedwebOptions/all`` lists them; the command line's parse,
/// `--help`, the environment lookup, the exit-2 messages and the configuration all read
/// that list, and a test checks README's option table against it.
struct FeedwebOption: Sendable {
    /// How often an option may be given, and how its values are read.
    enum Repetition: Sendable {
        /// Once (given again, the last counts); its variable holds one value.
        case single
        /// Any number of times, each with one value; its variable holds one value a line.
        case repeatable
        /// Any number of times, each with the words up to the next option (a shell splits
        /// a list at spaces); its variable holds them as one value.
        case words
    }

    /// What is wrong with an option's value, said after the option's name.
    struct Problem: Error, Equatable {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }

    /// The name, without `--`.
    let name: String
    /// What the value is, as `--help` and README write it after the name: `HOST:PORT`.
    let valueName: String
    let help: String
    let repetition: Repetition
    /// The default as `--help` and README show it; `nil` when the option has none (what it
    /// sets is off until it is given).
    let shownDefault: String?
    /// Checks the values given (at least one; for a single option, the last counts) and
    /// keeps them in the settings.
    let read: @Sendable ([String], inout FeedwebSettings) throws(Problem) -> Void

    /// `--name`.
    var flag: String { "--" + name }

    /// `--name VALUE`, as `--help` and README list it.
    var synopsis: String { flag + " " + valueName }

    /// The environment variable: `FEEDWEB_` + the name in upper case with `-` as `_`
    /// (`max-clients` → `FEEDWEB_MAX_CLIENTS`).
    var variable: String {
        "FEEDWEB_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

// The kinds of option: each reads its text the same way and keeps the value at a setting.
extension FeedwebOption {
    /// Every value given, read together by `parse` into `setting`.
    static func values<Value>(
        _ name: String, _ valueName: String, at setting: WritableKeyPath<FeedwebSettings, Value> & Sendable,
        repetition: Repetition, help: String, shownDefault: String?,
        parse: @escaping @Sendable ([String]) throws(Problem) -> Value
    ) -> FeedwebOption {
        FeedwebOption(
            name: name, valueName: valueName, help: help, repetition: repetition, shownDefault: shownDefault
        ) { values, settings throws(Problem) in
            settings[keyPath: setting] = try parse(values)
        }
    }

    /// One value, read by `parse` into `setting`.
    static func single<Value>(
        _ name: String, _ valueName: String, at setting: WritableKeyPath<FeedwebSettings, Value> & Sendable,
        help: String, shownDefault: String?, parse: @escaping @Sendable (String) throws(Problem) -> Value
    ) -> FeedwebOption {
        values(
            name, valueName, at: setting, repetition: .single, help: help, shownDefault: shownDefault
        ) { values throws(Problem) in
            try parse(values[values.count - 1])
        }
    }

    /// A number of seconds (``OptionValue/seconds(_:)``); the default shown is the setting's.
    static func seconds(
        _ name: String, at setting: WritableKeyPath<FeedwebSettings, Duration> & Sendable, help: String
    ) -> FeedwebOption {
        let initial = FeedwebSettings.initial[keyPath: setting]
        return single(
            name, "SECONDS", at: setting, help: help, shownDefault: OptionValue.secondsText(initial),
            parse: OptionValue.seconds)
    }

    /// A whole number in `range`; the default shown is the setting's, or `shownDefault` for
    /// one found at start (the cores this process may run on, say).
    static func wholeNumber(
        _ name: String, _ valueName: String = "N", at setting: WritableKeyPath<FeedwebSettings, Int> & Sendable,
        in range: ClosedRange<Int>, help: String, shownDefault: String? = nil
    ) -> FeedwebOption {
        let initial = FeedwebSettings.initial[keyPath: setting]
        return single(
            name, valueName, at: setting, help: help, shownDefault: shownDefault ?? String(initial)
        ) { text throws(Problem) in
            try OptionValue.wholeNumber(text, in: range)
        }
    }

    /// One of `choices`, by name; `unknown` says what is wrong with any other text. The
    /// default shown is the setting's name.
    static func choice<Value: Equatable & Sendable>(
        _ name: String, _ valueName: String, at setting: WritableKeyPath<FeedwebSettings, Value> & Sendable,
        among choices: [(name: String, value: Value)], help: String,
        unknown: @escaping @Sendable (String) -> String
    ) -> FeedwebOption {
        let initial = FeedwebSettings.initial[keyPath: setting]
        return single(
            name, valueName, at: setting, help: help, shownDefault: choices.first { $0.value == initial }?.name
        ) { text throws(Problem) in
            guard let choice = choices.first(where: { $0.name == text }) else { throw Problem(unknown(text)) }
            return choice.value
        }
    }
}
