import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A `--templates` folder: its templates over the built-ins, an item's own JSON in their
/// context, escaped unless the author says otherwise; what is wrong named by file, line and
/// column (a parse error) or by template (a typo, a broken contract); reloads all or none.
@Suite struct TemplateSetTests {
    static func folder(_ files: [String: String]) throws -> ScratchDirectory {
        let folder = try ScratchDirectory("templates")
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        return folder
    }

    static func item(_ raw: JSONValue, key: String = "k1") -> FeedItem {
        var item = FeedItem(key: key)
        item.title = "A title"
        item.raw = raw
        return item
    }

    @Test("a template of the folder replaces the built-in one; the others stay built in")
    func replaces() throws {
        let folder = try Self.folder([
            "story.mustache":
                #"<li class="story" id="{{domID}}">{{title}}: {{item.price}} by {{item.owner.login}}</li>"#
        ])
        let set = try TemplateSet.load(directory: folder.path)
        #expect(set.replaced == ["story"])
        #expect(set.warnings.isEmpty, "\(set.warnings)")
        #expect(set.version != TemplateSet.builtin.version)
        let renderer = PageRenderer(assetVersion: "t", templates: set)
        let item = Self.item(.object(["price": .double(9.5), "owner": .object(["login": .string("wile")])]))
        let story = renderer.storyFragment(item, profile: .generic, now: Date())
        #expect(story == #"<li class="story" id="item-k1">A title: 9.5 by wile</li>"#)
        // The detail page is still the built-in one.
        #expect(renderer.detailFragment(item, profile: .generic, now: Date()).contains("id=\"detail\""))
    }

    @Test("feed values are escaped in {{…}}; {{{…}}} is the author's explicit choice")
    func escaping() throws {
        let folder = try Self.folder([
            "story.mustache": #"<li id="{{domID}}"><b>{{item.name}}</b><i>{{{item.name}}}</i></li>"#
        ])
        let set = try TemplateSet.load(directory: folder.path)
        let html = PageRenderer(assetVersion: "t", templates: set).storyFragment(
            Self.item(.object(["name": .string("<script>x</script>")])), profile: .generic, now: Date())
        #expect(html.contains("<b>&lt;script&gt;x&lt;/script&gt;</b>"))
        #expect(html.contains("<i><script>x</script></i>"), "triple braces are raw, as documented")
    }

    @Test("lists and sections over the item's JSON; a missing member is empty")
    func sections() throws {
        let folder = try Self.folder([
            "story.mustache":
                #"<li id="{{domID}}">{{#item.tags}}[{{.}}]{{/item.tags}}{{^item.missing}} none{{/item.missing}} {{item.owner}}</li>"#
        ])
        let set = try TemplateSet.load(directory: folder.path)
        let html = PageRenderer(assetVersion: "t", templates: set).storyFragment(
            Self.item(.object(["tags": .array([.string("a"), .string("b")]), "owner": .object(["id": .int(3)])])),
            profile: .generic, now: Date())
        #expect(html == #"<li id="item-k1">[a][b] none {&quot;id&quot;:3}</li>"#)
    }

    @Test("a quote with a combining mark after it is escaped in built-in and folder templates")
    func combiningQuote() throws {
        let attack = "x\"\u{0301} onmouseover=alert(1) y=\"\u{0301}"
        let folder = try Self.folder([
            "story.mustache": #"<li id="{{domID}}" title="{{item.name}}">{{item.name}}</li>"#,
            "detail.mustache": "{{% CONTENT_TYPE: HTML}}" + #"<p title="{{item.name}}"></p>"#,
        ])
        let item = Self.item(.object(["name": .string(attack)]), key: attack)
        for set in [TemplateSet.builtin, try TemplateSet.load(directory: folder.path)] {
            let renderer = PageRenderer(assetVersion: "t", templates: set)
            for html in [
                renderer.storyFragment(item, profile: .generic, now: Date()),
                renderer.detailFragment(item, profile: .generic, now: Date()),
            ] {
                #expect(html.contains("x&quot;\u{0301} onmouseover=alert(1)"), "\(set.version): \(html)")
                let mark: Unicode.Scalar = "\u{0301}"
                #expect(html.unicodeScalars.contains(mark), "the mark is shown, as text")
                let rawQuote = "\"\u{0301}"  // outside #expect: its expansion does not take it
                #expect(!html.contains(rawQuote), "no quote left raw before the mark: \(html)")
            }
        }
    }

    @Test("a parse error's line is the file's own line")
    func parseErrorLine() throws {
        let folder = try Self.folder(["story.mustache": "<li>\n<b>{{#x}}</b>\n<i>{{/y}}</i>\n</li>\n"])
        do {
            _ = try TemplateSet.load(directory: folder.path)
            Issue.record("a broken template loaded")
        } catch {
            guard case .parse(_, let line, _, _, let text) = error else {
                Issue.record("not a parse error: \(error)")
                return
            }
            #expect(line == 3, "\(error)")
            #expect(text.contains("{{/y}}"), "the line shown is the one named: \(text)")
        }
    }

    @Test("a template that does not parse: its file, line and column")
    func parseError() throws {
        let folder = try Self.folder(["story.mustache": "<li id=\"{{domID}}\">\n{{#item.tags}}\n{{.}}\n</li>\n"])
        do {
            _ = try TemplateSet.load(directory: folder.path)
            Issue.record("a broken template loaded")
        } catch {
            guard case .parse(let file, let line, let column, let reason, _) = error else {
                Issue.record("not a parse error: \(error)")
                return
            }
            #expect(file == folder.file("story.mustache"))
            #expect(line >= 2 && column >= 1, "\(line):\(column)")
            #expect(!reason.isEmpty)
            #expect(error.description.hasPrefix(folder.file("story.mustache") + ":\(line):\(column): "))
        }
    }

    @Test("a typo replaces nothing: warned about by name, with the name meant")
    func typo() throws {
        let folder = try Self.folder(["storey.mustache": "<li>{{title}}</li>"])
        let set = try TemplateSet.load(directory: folder.path)
        #expect(set.replaced.isEmpty)
        #expect(set.warnings.count == 1)
        #expect(set.warnings.first?.contains("storey.mustache") == true)
        #expect(set.warnings.first?.contains("story.mustache") == true, "\(set.warnings)")
        // A partial a template includes is no typo.
        let partial = try Self.folder([
            "story.mustache": #"<li id="{{domID}}">{{>price}}</li>"#, "price.mustache": "{{item.price}}",
        ])
        #expect(try TemplateSet.load(directory: partial.path).warnings.isEmpty)
    }

    @Test("a template that breaks what the page script needs is named in a warning")
    func contract() throws {
        let folder = try Self.folder([
            "story.mustache": "<li>{{title}}</li>", "list.mustache": "<ol>{{#stories}}{{>story}}{{/stories}}</ol>",
            "layout.mustache": "<html><body>{{{main}}}</body></html>",
        ])
        let warnings = try TemplateSet.load(directory: folder.path).warnings
        #expect(warnings.contains { $0.hasPrefix("story.mustache") && $0.contains("item-") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("list.mustache") && $0.contains("id=\"stories\"") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("layout.mustache") && $0.contains("/static/app.js") }, "\(warnings)")
        // A layout of before times.js: live, its dates in UTC, and the warning says that much.
        let older = try Self.folder([
            "layout.mustache": #"<html><body data-stream="{{stream}}">{{{main}}}"#
                + #"<script src="/static/app.js?v={{assetVersion}}" defer></script></body></html>"#
        ])
        let olderWarnings = try TemplateSet.load(directory: older.path).warnings
        #expect(olderWarnings.count == 1, "\(olderWarnings)")
        #expect(
            olderWarnings.first.map { $0.contains("/static/times.js") && $0.contains("UTC") && !$0.contains("live") }
                == true, "\(olderWarnings)")
        // The built-ins keep the contract.
        let exported = try Self.folder(
            Dictionary(uniqueKeysWithValues: TemplateSet.builtinSources.map { ($0.name + ".mustache", $0.source) }))
        let all = try TemplateSet.load(directory: exported.path)
        #expect(all.warnings.isEmpty, "\(all.warnings)")
        #expect(all.replaced.count == TemplateSet.builtinSources.count)
    }

    @Test("a reload takes a folder that loads, and keeps the set in use otherwise")
    func reload() throws {
        let folder = try Self.folder(["story.mustache": #"<li id="{{domID}}">one</li>"#])
        let library = TemplateLibrary(try TemplateSet.load(directory: folder.path))
        let first = library.current.version
        try Data(#"<li id="{{domID}}">two</li>"#.utf8).write(to: URL(fileURLWithPath: folder.file("story.mustache")))
        guard case .success(let second)? = library.reload() else {
            Issue.record("the changed folder did not load")
            return
        }
        #expect(second.version != first && library.current.version == second.version)
        try Data("{{#open}}".utf8).write(to: URL(fileURLWithPath: folder.file("story.mustache")))
        guard case .failure? = library.reload() else {
            Issue.record("a broken folder loaded")
            return
        }
        #expect(library.current.version == second.version, "the set in use is kept")
        #expect(library.lastFailure?.description.contains("story.mustache:1:") == true)
        #expect(TemplateLibrary().reload() == nil, "nothing to reload without a folder")
    }
}
