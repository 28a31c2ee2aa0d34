extension Templates {
    /// `/` for items that are not news: a table of their values. `#stories` (the rows) and
    /// each row's `id` are what the page stream swaps; each cell's `data-col` is how the
    /// page script finds it in the row's next version to mark a change. Each row's `html` is
    /// the row as `tableRow` renders it (of the row alone, as the page stream's fragments are).
    static let table = #"""
        <div class="page-head">
        <h1>{{heading}}</h1>
        <p class="count" id="count">{{countText}}</p>
        </div>
        <p class="notice" id="problem" role="note"{{^hasProblem}} hidden{{/hasProblem}}>{{problem}}</p>
        {{#hasSections}}
        <nav class="sections" aria-label="{{filterLabel}}">
        <ul>
        <li class="sections-label">{{filterLabel}}</li>
        <li><a href="{{allHref}}"{{^section}} aria-current="page"{{/section}}>All</a></li>
        {{#sections}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{name}}</a></li>
        {{/sections}}
        </ul>
        </nav>
        {{/hasSections}}
        <div class="table-scroll">
        <table class="items" id="items-table">
        <thead id="columns">{{>tableHead}}</thead>
        <tbody id="stories" data-section="{{section}}">
        {{#rows}}{{{html}}}{{/rows}}
        </tbody>
        </table>
        </div>
        {{^rows}}<p class="empty" id="empty">{{emptyText}}</p>{{/rows}}
        {{#hasPages}}<nav class="pager" aria-label="Pages"><p>{{pageText}}</p>{{#previousHref}}<a class="button" rel="prev" href="{{previousHref}}">Previous</a>{{/previousHref}}{{#nextHref}}<a class="button" rel="next" href="{{nextHref}}">Next</a>{{/nextHref}}</nav>{{/hasPages}}
        """#

    /// The table's header row, in `<thead id="columns">`: the fragment the page stream's
    /// dialects also send in a whole state.
    static let tableHead = #"""
        <tr>{{#columns}}<th scope="col" class="col{{#numeric}} num{{/numeric}}" data-col="{{name}}" aria-sort="{{sort}}"><a href="{{href}}">{{label}}{{#arrow}} <span class="sort-arrow" aria-hidden="true">{{arrow}}</span>{{/arrow}}</a></th>{{/columns}}</tr>
        """#

    /// One row of the table: the fragment the page stream also sends.
    static let tableRow = #"""
        <tr class="row" id="{{domID}}" data-key="{{key}}">{{#cells}}<td class="{{classes}}" data-col="{{name}}"{{#value}} data-value="{{value}}"{{/value}}{{#full}} title="{{full}}"{{/full}}>{{>cell}}</td>{{/cells}}</tr>

        """#

    /// One value, as its format shows it (inside a cell, a tile or the item page).
    static let cell = #"""
        {{#linksItem}}<a class="row-link" href="{{href}}">{{/linksItem}}{{#isPlain}}{{text}}{{/isPlain}}{{#sparkline}}<svg class="spark" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true" focusable="false"><polyline points="{{sparkline}}" fill="none" stroke="currentColor"/></svg>{{/sparkline}}{{#isStatus}}<span class="status-word">{{text}}</span>{{/isStatus}}{{#isTime}}<time datetime="{{timeMachine}}"{{#relative}} data-relative{{/relative}}{{^relative}} data-local{{/relative}}>{{text}}</time>{{/isTime}}{{#isLink}}<a href="{{href}}" rel="noopener noreferrer" target="_blank">{{text}}</a>{{/isLink}}{{#isImage}}<img src="{{src}}" alt="" loading="lazy" decoding="async" width="40" height="40">{{/isImage}}{{#linksItem}}</a>{{/linksItem}}
        """#

    /// One item on the kiosk of a table: its name, one figure large, a few more.
    static let kioskTile = #"""
        <li class="tile{{#row.lead.tone}} {{row.lead.tone}}{{/row.lead.tone}}{{#row.wordy}} wordy{{/row.wordy}}{{#featured}} is-featured{{/featured}}" id="{{row.domID}}" data-key="{{row.key}}">
        <h2 class="tile-title">{{row.title}}</h2>
        {{#row.lead}}<p class="tile-lead {{classes}}" data-col="{{name}}"{{#value}} data-value="{{value}}"{{/value}}>{{^isNamedByItem}}<span class="tile-label">{{label}}</span> {{/isNamedByItem}}{{>cell}}</p>{{/row.lead}}
        {{#row.hasFacts}}<dl class="tile-facts">{{#row.facts}}<div class="{{classes}}" data-col="{{name}}"{{#value}} data-value="{{value}}"{{/value}}><dt>{{label}}</dt><dd>{{>cell}}</dd></div>{{/row.facts}}</dl>{{/row.hasFacts}}
        </li>

        """#

    /// `/items/{key}` for an item that is not news: its values, then every field.
    static let detailTable = #"""
        <article class="detail detail-table" id="detail" data-key="{{key}}">
        <nav class="crumbs" aria-label="Breadcrumb"><a href="{{homeHref}}">All items</a>{{#section}} › <a href="{{sectionHref}}">{{section}}</a>{{/section}}</nav>
        <p class="gone" id="gone" hidden>This item has left the feed. What you see is its last version.</p>
        <h1 class="detail-title">{{title}}</h1>
        {{#original}}<p class="original"><a class="button" href="{{original}}" rel="noopener noreferrer" target="_blank">Open the original<span class="visually-hidden"> (opens in a new tab)</span></a></p>{{/original}}
        <dl class="detail-values">{{#cells}}<div class="detail-value"><dt>{{label}}</dt><dd class="{{classes}}" data-col="{{name}}"{{#value}} data-value="{{value}}"{{/value}}>{{>cell}}</dd></div>{{/cells}}</dl>
        <section class="detail-fields" aria-labelledby="fields-heading">
        <h2 id="fields-heading">Every field</h2>
        {{{fields}}}
        </section>
        </article>
        """#
}
