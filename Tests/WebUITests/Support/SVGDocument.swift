import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG (or any XML) document parsed by Foundation's `XMLParser`, which accepts only
/// well-formed XML: every element with its attributes, its text, and its ancestors' names.
final class SVGDocument: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        /// The class names of this element and its ancestors, innermost first.
        let classes: [[String]]
        var text = ""

        func has(class name: String) -> Bool { classes.first?.contains(name) ?? false }
        func inside(class name: String) -> Bool { classes.contains { $0.contains(name) } }
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []

    /// Parses `text`; throws when it is not well-formed XML.
    init(_ text: String) throws {
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw Malformed(
                description: "\(parser.parserError.map { "\($0)" } ?? "not well-formed") in \(text.prefix(300))")
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parentClasses = open.last.map { elements[$0].classes } ?? []
        let own = (attributes["class"] ?? "").split(separator: " ").map(String.init)
        elements.append(Element(name: name, attributes: attributes, classes: [own] + parentClasses))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    /// The elements named `name`.
    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The points of a `points` attribute.
    static func points(_ text: String) -> [(x: Double, y: Double)] {
        text.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: ",").compactMap { Double($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }
}
