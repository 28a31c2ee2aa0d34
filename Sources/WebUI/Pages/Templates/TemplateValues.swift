import Mustache

// The templates read every view model by name, through `MustacheParent`, instead of
// through `Mirror` (which reflects all of a value's fields for every `{{name}}` it looks
// up: 15 % of feedweb's CPU at 400 changes/s with 1,000 items, before). Each
// `child(named:)` answers exactly the value's stored properties, optionals as `nil`
// when empty (as `Mirror` lookups did); `TemplateValuesTests` holds every one to `Mirror`.

extension PageRenderer.Frame: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "brand": self.brand
        case "listLabel": self.listLabel
        case "isTable": self.isTable
        case "bodyClass": self.bodyClass
        case "stream": self.stream
        case "past": self.past
        case "navLatest": self.navLatest
        case "navStats": self.navStats
        case "badge": self.badge
        case "updatedMachine": self.updatedMachine
        case "updatedText": self.updatedText
        case "main": self.main
        case "footer": self.footer
        case "assetVersion": self.assetVersion
        case "waiting": self.waiting
        default: nil
        }
    }
}

extension PageRenderer.PastBanner: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": self.id
        case "timeMachine": self.timeMachine
        case "timeText": self.timeText
        case "liveHref": self.liveHref
        default: nil
        }
    }
}

extension PageRenderer.BadgeView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "kind": self.kind
        case "label": self.label
        case "problem": self.problem
        default: nil
        }
    }
}

extension PageRenderer.SectionLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": self.href
        case "current": self.current
        default: nil
        }
    }
}

extension PageRenderer.ListContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": self.heading
        case "countText": self.countText
        case "section": self.section
        case "sections": self.sections
        case "stories": self.stories
        case "hasSections": self.hasSections
        case "emptyText": self.emptyText
        default: nil
        }
    }
}

extension PageRenderer.ErrorContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "code": self.code
        case "heading": self.heading
        case "message": self.message
        case "home": self.home
        default: nil
        }
    }
}

extension PageRenderer.KioskStoryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "story": self.story
        case "featured": self.featured
        default: nil
        }
    }
}

extension PageRenderer.KioskContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "stream": self.stream
        case "past": self.past
        case "section": self.section
        case "sectionText": self.sectionText
        case "badge": self.badge
        case "stories": self.stories
        case "emptyText": self.emptyText
        case "nowMachine": self.nowMachine
        case "nowText": self.nowText
        case "assetVersion": self.assetVersion
        case "brand": self.brand
        case "isTable": self.isTable
        case "tiles": self.tiles
        case "tileCount": self.tileCount
        case "attention": self.attention
        case "waiting": self.waiting
        default: nil
        }
    }
}

extension PageRenderer.TickerContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "ticker": self.ticker
        default: nil
        }
    }
}

extension PageRenderer.BadgeContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "badge": self.badge
        case "updatedMachine": self.updatedMachine
        case "updatedText": self.updatedText
        default: nil
        }
    }
}

extension StoryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "key": self.key
        case "domID": self.domID
        case "href": self.href
        case "title": self.title
        case "kicker": self.kicker
        case "abstract": self.abstract
        case "byline": self.byline
        case "thumbnail": self.thumbnail
        case "placeholder": self.placeholder
        case "timeMachine": self.timeMachine
        case "timeText": self.timeText
        case "sectionHref": self.sectionHref
        case "hasThumbnail": self.hasThumbnail
        case "hasKicker": self.hasKicker
        case "hasAbstract": self.hasAbstract
        case "hasByline": self.hasByline
        case "hasTime": self.hasTime
        case "hasMedia": self.hasMedia
        case "item": self.item
        default: nil
        }
    }
}

extension DetailView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "story": self.story
        case "lede": self.lede
        case "paragraphs": self.paragraphs
        case "hasBody": self.hasBody
        case "item": self.item
        case "section": self.section
        case "subsection": self.subsection
        case "original": self.original
        case "published": self.published
        case "publishedMachine": self.publishedMachine
        case "updated": self.updated
        case "updatedMachine": self.updatedMachine
        case "images": self.images
        case "links": self.links
        case "hasLinks": self.hasLinks
        case "homeHref": self.homeHref
        default: nil
        }
    }
}

extension DetailView.Image: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "url": self.url
        case "caption": self.caption
        case "credit": self.credit
        case "width": self.width
        case "height": self.height
        default: nil
        }
    }
}

extension DetailView.Paragraph: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": self.text
        case "isHeading": self.isHeading
        case "isList": self.isList
        case "isNumbered": self.isNumbered
        case "items": self.items
        default: nil
        }
    }
}

extension DetailView.ListItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": self.text
        default: nil
        }
    }
}

extension DetailView.Link: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": self.text
        case "url": self.url
        default: nil
        }
    }
}

extension StatsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "ticker": self.ticker
        case "tiles": self.tiles
        case "rate": self.rate
        case "bytes": self.bytes
        case "events": self.events
        case "hasEvents": self.hasEvents
        default: nil
        }
    }
}

extension StatsView.Ticker: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": self.label
        case "title": self.title
        case "href": self.href
        case "timeMachine": self.timeMachine
        case "timeText": self.timeText
        case "clock": self.clock
        default: nil
        }
    }
}

extension StatsView.Tile: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": self.label
        case "value": self.value
        case "note": self.note
        default: nil
        }
    }
}

extension StatsView.LegendEntry: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "label": self.label
        default: nil
        }
    }
}

extension StatsView.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": self.id
        case "heading": self.heading
        case "note": self.note
        case "svg": self.svg
        case "legend": self.legend
        default: nil
        }
    }
}

extension StatsView.Event: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "kind": self.kind
        case "label": self.label
        case "detail": self.detail
        case "timeMachine": self.timeMachine
        case "timeText": self.timeText
        default: nil
        }
    }
}

extension InspectView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "itemsOrigin": self.itemsOrigin
        case "itemsNotes": self.itemsNotes
        case "itemsProblem": self.itemsProblem
        case "templatesText": self.templatesText
        case "templatesWarnings": self.templatesWarnings
        case "templatesFailure": self.templatesFailure
        case "treeID": self.treeID
        case "hasDocument": self.hasDocument
        case "tree": self.tree
        case "hasTree": self.hasTree
        case "eventCapacity": self.eventCapacity
        case "exchangeCapacity": self.exchangeCapacity
        case "stageNames": self.stageNames
        case "events": self.events
        case "hasEvents": self.hasEvents
        case "exchanges": self.exchanges
        case "hasExchanges": self.hasExchanges
        case "pages": self.pages
        case "morePages": self.morePages
        case "hasPages": self.hasPages
        case "groups": self.groups
        case "hasGroups": self.hasGroups
        case "showings": self.showings
        case "hasShowings": self.hasShowings
        default: nil
        }
    }
}

extension InspectView.EventRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": self.id
        case "kind": self.kind
        case "operations": self.operations
        case "bytes": self.bytes
        case "arrivedMachine": self.arrivedMachine
        case "arrivedText": self.arrivedText
        case "stages": self.stages
        case "stagesNanos": self.stagesNanos
        case "waterfall": self.waterfall
        default: nil
        }
    }
}

extension InspectView.ExchangeRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "startedMachine": self.startedMachine
        case "startedText": self.startedText
        case "kind": self.kind
        case "status": self.status
        case "duration": self.duration
        case "bytes": self.bytes
        case "error": self.error
        case "failed": self.failed
        default: nil
        }
    }
}

extension InspectView.PageRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "screens": self.screens
        case "views": self.views
        case "sinceMachine": self.sinceMachine
        case "sinceText": self.sinceText
        case "pendingBytes": self.pendingBytes
        case "state": self.state
        case "stalled": self.stalled
        default: nil
        }
    }
}

extension InspectView.GroupRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "clients": self.clients
        case "oldestMachine": self.oldestMachine
        case "oldestText": self.oldestText
        case "pendingBytes": self.pendingBytes
        case "stalled": self.stalled
        case "hasStalled": self.hasStalled
        default: nil
        }
    }
}

extension InspectView.ShowingsRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "screen": self.screen
        case "entries": self.entries
        default: nil
        }
    }
}

extension InspectView.ShowingsRow.Entry: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "atMachine": self.atMachine
        case "atText": self.atText
        case "kind": self.kind
        case "value": self.value
        case "label": self.label
        case "hasLabel": self.hasLabel
        default: nil
        }
    }
}

extension PageRenderer.KioskTileView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "row": self.row
        case "featured": self.featured
        default: nil
        }
    }
}

extension TableView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": self.heading
        case "countText": self.countText
        case "filterLabel": self.filterLabel
        case "section": self.section
        case "allHref": self.allHref
        case "sections": self.sections
        case "hasSections": self.hasSections
        case "columns": self.columns
        case "rows": self.rows
        case "emptyText": self.emptyText
        case "problem": self.problem
        case "hasProblem": self.hasProblem
        case "pageText": self.pageText
        case "previousHref": self.previousHref
        case "nextHref": self.nextHref
        case "hasPages": self.hasPages
        default: nil
        }
    }
}

extension PageRenderer.TableHeadContext: MustacheParent {
    func child(named name: String) -> Any? {
        name == "columns" ? columns : nil
    }
}

extension TableView.Head: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "label": self.label
        case "numeric": self.numeric
        case "href": self.href
        case "sort": self.sort
        case "arrow": self.arrow
        default: nil
        }
    }
}

extension RowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "key": self.key
        case "domID": self.domID
        case "href": self.href
        case "title": self.title
        case "cells": self.cells
        case "lead": self.lead
        case "facts": self.facts
        case "hasFacts": self.hasFacts
        case "wordy": self.wordy
        case "item": self.item
        default: nil
        }
    }
}

extension TableView.Row: MustacheParent {
    /// `html`, and every name of its ``RowView`` (made only then).
    func child(named name: String) -> Any? {
        name == "html" ? html : row.child(named: name)
    }
}

extension CellView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "label": self.label
        case "isNamedByItem": self.isNamedByItem
        case "text": self.text
        case "full": self.full
        case "value": self.value
        case "classes": self.classes
        case "tone": self.tone
        case "statusTone": self.statusTone?.rawValue
        case "isPlain": self.isPlain
        case "isLink": self.isLink
        case "isImage": self.isImage
        case "isTime": self.isTime
        case "isStatus": self.isStatus
        case "isID": self.isID
        case "href": self.href
        case "linksItem": self.linksItem
        case "src": self.src
        case "timeMachine": self.timeMachine
        case "relative": self.relative
        case "sparkline": self.sparkline
        default: nil
        }
    }
}

extension TableDetailView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "key": self.key
        case "title": self.title
        case "section": self.section
        case "sectionHref": self.sectionHref
        case "homeHref": self.homeHref
        case "original": self.original
        case "cells": self.cells
        case "fields": self.fields
        case "item": self.item
        default: nil
        }
    }
}

extension PageRenderer.BoardContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "brand": self.brand
        case "badge": self.badge
        case "columns": self.columns
        case "cellCount": self.cellCount
        case "cells": self.cells
        case "rotate": self.rotate
        case "attention": self.attention
        case "shift": self.shift
        case "dim": self.dim
        case "isTable": self.isTable
        case "assetVersion": self.assetVersion
        case "waiting": self.waiting
        default: nil
        }
    }
}

extension PageRenderer.BoardCellView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "spec": self.spec
        case "pageClass": self.pageClass
        case "main": self.main
        default: nil
        }
    }
}
