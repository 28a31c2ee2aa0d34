import Foundation
import WebUI

/// `--export-templates DIR`: every built-in template written to `DIR/NAME.mustache`, as a
/// starting point for `--templates DIR`. Never overwrites: a folder that already holds one
/// of the files is refused, naming them.
enum TemplateExport {
    /// Why the templates were not written.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the templates to `directory` (made if missing); returns how many.
    static func write(to directory: String) throws(Failure) -> Int {
        let files = TemplateSet.builtinSources
        let manager = FileManager.default
        let existing = files.map { $0.name + ".mustache" }.filter {
            manager.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
        guard existing.isEmpty else {
            let shown = existing.prefix(3).joined(separator: ", ") + (existing.count > 3 ? ", …" : "")
            throw Failure(description: "\(directory) already holds \(shown); export into a new or empty folder")
        }
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, source) in files {
                let path = (directory as NSString).appendingPathComponent(name + ".mustache")
                try Data((source.hasSuffix("\n") ? source : source + "\n").utf8).write(to: URL(fileURLWithPath: path))
            }
        } catch {
            throw Failure(description: "cannot write to \(directory): \((error as NSError).localizedDescription)")
        }
        return files.count
    }
}
