extension ItemProfile {
    /// A pointer option's value that may also say "none" (`--key-path none`).
    public enum Pointing: Sendable, Equatable {
        case at(JSONPointer)
        case nowhere
    }

    /// One `--field NAME=/pointer` (a `nil` pointer drops the field).
    public struct FieldPointer: Sendable, Equatable {
        public var field: Field
        public var pointer: JSONPointer?

        public init(field: Field, pointer: JSONPointer?) {
            self.field = field
            self.pointer = pointer
        }
    }

    /// What the options say over a profile: each given part replaces the profile's, whether
    /// the profile is named (`--profile`) or found in the first document
    /// (``ItemShapeDetector``).
    public struct Overrides: Sendable, Equatable {
        /// `--items-path`.
        public var itemsPath: JSONPointer?
        /// `--key-path`.
        public var keyPath: Pointing?
        /// `--version-path`.
        public var versionPath: Pointing?
        /// `--field`, in the order given.
        public var fields: [FieldPointer] = []
        /// `--mark`.
        public var marks: [ItemMark] = []
        /// `--column`, in order; any makes the layout a table.
        public var columns: [ItemColumn] = []
        /// `--sort`.
        public var sort: ItemSort?
        /// Whether items arrive one at a time (append mode), so that uniqueness among the
        /// first ones says nothing: a found key must then be a field named like an id.
        public var itemsArriveAlone = false

        public init() {}

        /// `profile` with every given part in place of its own.
        public func applied(to profile: ItemProfile) -> ItemProfile {
            var profile = profile
            if let itemsPath { profile.itemsPath = itemsPath }
            switch keyPath {
            case .at(let key)?:
                profile.keyPath = key
            case .nowhere?:
                // None means none: every item keyed by a hash of its JSON, not by the
                // profile's fallbacks (`/id`, `/url`, …) either.
                profile.keyPath = nil
                profile.fallbackKeyPaths = []
            case nil:
                break
            }
            switch versionPath {
            case .at(let version)?: profile.versionPath = version
            case .nowhere?: profile.versionPath = nil
            case nil: break
            }
            for given in fields { profile.fields[given.field] = given.pointer }
            // A title given names the item alone.
            if fields.contains(where: { $0.field == .title }) { profile.titleOpponent = nil }
            if !marks.isEmpty { profile.marks = marks }
            if !columns.isEmpty {
                profile.columns = columns
                profile.columnsAreGiven = true
                profile.layout = .table
            }
            if let sort { profile.sort = sort }
            return profile
        }
    }
}
