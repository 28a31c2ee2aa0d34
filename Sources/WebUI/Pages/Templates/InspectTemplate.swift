extension Templates {
    /// `/inspect`: the document, the event log with each event's way to the sockets,
    /// upstream's exchanges and the connected screens. Each part is a partial with a stable
    /// id, rendered alone for the page stream too; `tree` and `waterfall` are built and
    /// escaped by ``JSONTreeHTML`` and ``InspectView``.
    static let inspect = #"""
        <div class="page-head">
        <h1>Inspect</h1>
        <p class="count">what feedweb holds and does, live</p>
        </div>
        <div class="inspect-grid">
        <section class="inspect-part inspect-document" aria-labelledby="inspect-document-heading">
        <h2 id="inspect-document-heading">Document</h2>
        {{>inspectItems}}
        {{>inspectTree}}
        </section>
        {{>inspectEvents}}
        {{>inspectExchanges}}
        {{>inspectScreens}}
        </div>
        """#

    /// The document's id, how items are read from it (the profile and why) and the
    /// templates.
    static let inspectItems = #"""
        <div class="inspect-items" id="inspect-items"><p class="inspect-note" id="inspect-document-id" data-id="{{treeID}}">{{#hasDocument}}As of change <span class="mono">{{treeID}}</span>.{{/hasDocument}}</p><h3>Items</h3><p>{{itemsOrigin}}</p>{{#itemsNotes.first}}<ul>{{#itemsNotes}}<li>{{.}}</li>{{/itemsNotes}}</ul>{{/itemsNotes.first}}{{#itemsProblem}}<p class="notice">{{itemsProblem}}</p>{{/itemsProblem}}<h3>Templates</h3><p id="inspect-templates">{{templatesText}}</p>{{#templatesFailure}}<p class="notice" id="inspect-templates-failure">{{templatesFailure}}</p>{{/templatesFailure}}{{#templatesWarnings.first}}<ul class="inspect-warnings">{{#templatesWarnings}}<li>{{.}}</li>{{/templatesWarnings}}</ul>{{/templatesWarnings.first}}</div>
        """#

    /// The document as a tree, drawn whole (a change redraws only the nodes it touched,
    /// by their ids: ``JSONTreeChange``).
    static let inspectTree = #"""
        <div class="inspect-tree" id="inspect-tree">{{#hasTree}}{{{tree}}}{{/hasTree}}{{^hasTree}}<p class="inspect-empty">No document yet.</p>{{/hasTree}}</div>
        """#

    /// The last events, newest first, each with its waterfall.
    static let inspectEvents = #"""
        <section class="inspect-part" id="inspect-events" aria-labelledby="inspect-events-heading">
        <h2 id="inspect-events-heading">Events <span class="inspect-note">the last {{eventCapacity}}, newest first; µs after the read that carried each</span></h2>
        {{#hasEvents}}<div class="table-scroll"><table class="inspect-table">
        <thead><tr><th>id</th><th>type</th><th>ops</th><th>bytes</th><th>arrived</th>{{#stageNames}}<th>{{.}}</th>{{/stageNames}}<th>waterfall</th></tr></thead>
        <tbody id="inspect-events-rows">{{#events}}{{>inspectEvent}}
        {{/events}}</tbody></table></div>{{/hasEvents}}
        {{^hasEvents}}<p class="inspect-empty">No event yet.</p>{{/hasEvents}}
        </section>
        """#

    /// One event of the log, its row's id `ie-` and the event's: a new event's row is put
    /// on top of `#inspect-events-rows` alone, and a row whose stages filled in is swapped
    /// by its id (``InspectEventsChange``).
    static let inspectEvent = #"""
        <tr class="inspect-event" id="ie-{{id}}" data-id="{{id}}" data-stages-ns="{{stagesNanos}}" data-arrived="{{arrivedMachine}}"><td class="mono">{{id}}</td><td>{{kind}}</td><td>{{operations}}</td><td>{{bytes}}</td><td><time datetime="{{arrivedMachine}}">{{arrivedText}}</time></td>{{#stages}}<td class="num">{{.}}</td>{{/stages}}<td>{{{waterfall}}}</td></tr>
        """#

    /// Upstream's last exchanges, newest first.
    static let inspectExchanges = #"""
        <section class="inspect-part" id="inspect-exchanges" aria-labelledby="inspect-exchanges-heading">
        <h2 id="inspect-exchanges-heading">Upstream <span class="inspect-note">the last {{exchangeCapacity}} exchanges, newest first</span></h2>
        {{#hasExchanges}}<div class="table-scroll"><table class="inspect-table">
        <thead><tr><th>started</th><th>kind</th><th>status</th><th>duration</th><th>bytes</th><th>error</th></tr></thead>
        <tbody>{{#exchanges}}<tr class="inspect-exchange{{#failed}} is-failed{{/failed}}"><td><time datetime="{{startedMachine}}">{{startedText}}</time></td><td>{{kind}}</td><td>{{status}}</td><td>{{duration}}</td><td class="num">{{bytes}}</td><td class="inspect-error">{{error}}</td></tr>
        {{/exchanges}}</tbody></table></div>{{/hasExchanges}}
        {{^hasExchanges}}<p class="inspect-empty">No exchange yet (the source is not a remote upstream, or it has not started).</p>{{/hasExchanges}}
        </section>
        """#

    /// The page streams and the program clients.
    static let inspectScreens = #"""
        <section class="inspect-part" id="inspect-screens" aria-labelledby="inspect-screens-heading">
        <h2 id="inspect-screens-heading">Screens <span class="inspect-note">stalled: bytes unread for a second or more; dropped after 5 s</span></h2>
        {{#hasPages}}<div class="table-scroll"><table class="inspect-table">
        <thead><tr><th>screens</th><th>views</th><th>since</th><th>queued bytes</th><th>state</th></tr></thead>
        <tbody>{{#pages}}<tr class="inspect-screen{{#stalled}} is-stalled{{/stalled}}" data-screens="{{screens}}" data-stalled="{{#stalled}}true{{/stalled}}{{^stalled}}false{{/stalled}}"><td>{{screens}}</td><td class="mono">{{views}}</td><td><time datetime="{{sinceMachine}}">{{sinceText}}</time></td><td class="num">{{pendingBytes}}</td><td>{{state}}</td></tr>
        {{/pages}}</tbody></table></div>{{#morePages}}<p class="inspect-note">and {{morePages}} more page streams</p>{{/morePages}}{{/hasPages}}
        {{^hasPages}}<p class="inspect-empty">No page open.</p>{{/hasPages}}
        {{#hasGroups}}<div class="table-scroll"><table class="inspect-table">
        <thead><tr><th>clients of</th><th>clients</th><th>oldest since</th><th>queued bytes</th><th>stalled</th></tr></thead>
        <tbody>{{#groups}}<tr class="inspect-group{{#hasStalled}} is-stalled{{/hasStalled}}" data-group="{{name}}" data-clients="{{clients}}" data-stalled="{{stalled}}"><td class="mono">{{name}}</td><td class="num">{{clients}}</td><td>{{#oldestMachine}}<time datetime="{{oldestMachine}}">{{oldestText}}</time>{{/oldestMachine}}</td><td class="num">{{pendingBytes}}</td><td class="num">{{stalled}}</td></tr>
        {{/groups}}</tbody></table></div>{{/hasGroups}}
        {{^hasGroups}}<p class="inspect-empty">No program client connected.</p>{{/hasGroups}}
        <h3 id="inspect-showings-heading">What named screens showed <span class="inspect-note">a page opened with ?screen=NAME reports its board's rotation steps, attention and dim</span></h3>
        {{#hasShowings}}<div class="table-scroll"><table class="inspect-table" aria-labelledby="inspect-showings-heading">
        <thead><tr><th>screen</th><th>showed, newest first</th></tr></thead>
        <tbody>{{#showings}}<tr class="inspect-showings" data-screen="{{screen}}"><td>{{screen}}</td><td><ol class="inspect-shown">{{#entries}}<li data-kind="{{kind}}" data-value="{{value}}"><time datetime="{{atMachine}}">{{atText}}</time> {{kind}} <span class="mono">{{value}}</span>{{#hasLabel}} · {{label}}{{/hasLabel}}</li>{{/entries}}</ol></td></tr>
        {{/showings}}</tbody></table></div>{{/hasShowings}}
        {{^hasShowings}}<p class="inspect-empty">No named screen has reported (open a board with ?screen=NAME).</p>{{/hasShowings}}
        </section>
        """#
}
