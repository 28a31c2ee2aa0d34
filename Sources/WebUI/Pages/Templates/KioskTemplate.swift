extension Templates {
    /// `/kiosk`: a full-screen board for a TV or an iframe. Nothing to click; the page
    /// script cycles the highlighted story. `data-key` ties each entry to its item.
    static let kiosk = #"""
        <!DOCTYPE html>
        <html lang="en" class="kiosk">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="dark">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/static/style.css?v={{assetVersion}}">
        <link rel="stylesheet" href="/static/kiosk.css?v={{assetVersion}}">
        <link rel="icon" href="/static/favicon.svg?v={{assetVersion}}" type="image/svg+xml">
        {{#isTable}}<script src="/static/cells.js?v={{assetVersion}}" defer></script>{{/isTable}}
        <script src="/static/showings.js?v={{assetVersion}}" defer></script>
        <script src="/static/attention.js?v={{assetVersion}}" defer></script>
        <script src="/static/times.js?v={{assetVersion}}" defer></script>
        <script src="/static/app.js?v={{assetVersion}}" defer></script>
        </head>
        <body class="page-kiosk" data-stream="{{stream}}" data-section="{{section}}" data-attention="{{attention}}"{{#waiting}} data-waiting{{/waiting}}>
        {{^past}}{{>kioskStatus}}{{/past}}{{#past}}{{>pastBanner}}{{/past}}
        <main class="board" id="main">
        <header class="board-head">
        <p class="board-brand"><span class="brand-mark" aria-hidden="true"></span>{{brand}}{{#sectionText}} · {{sectionText}}{{/sectionText}}</p>
        <p class="board-clock"><time id="clock" datetime="{{nowMachine}}">{{nowText}}</time></p>
        </header>
        {{^isTable}}<ol class="board-list" id="stories">
        {{#stories}}{{>kioskStory}}{{/stories}}
        </ol>
        {{^stories}}<p class="board-empty" id="empty">{{emptyText}}</p>{{/stories}}{{/isTable}}
        {{#isTable}}<ol class="board-tiles" id="stories" data-count="{{tileCount}}">
        {{#tiles}}{{>kioskTile}}{{/tiles}}
        </ol>
        {{^tiles}}<p class="board-empty" id="empty">{{emptyText}}</p>{{/tiles}}{{/isTable}}
        </main>
        </body>
        </html>

        """#

    /// One story on the board (the first is highlighted until the script cycles).
    static let kioskStory = #"""
        <li class="board-story{{#featured}} is-featured{{/featured}}{{^story.hasMedia}} no-media{{/story.hasMedia}}" id="{{story.domID}}" data-key="{{story.key}}">
        {{#story.hasMedia}}<div class="board-media">{{#story.hasThumbnail}}<img src="{{story.thumbnail}}" alt="" data-fallback="{{story.placeholder}}">{{/story.hasThumbnail}}{{^story.hasThumbnail}}<img src="{{story.placeholder}}" alt="">{{/story.hasThumbnail}}</div>{{/story.hasMedia}}
        <div class="board-text">
        {{#story.hasKicker}}<p class="kicker">{{story.kicker}}</p>{{/story.hasKicker}}
        <h2 class="board-title">{{story.title}}</h2>
        {{#story.hasAbstract}}<p class="board-abstract">{{story.abstract}}</p>{{/story.hasAbstract}}
        <p class="board-meta">{{#story.hasByline}}<span>{{story.byline}}</span>{{/story.hasByline}}{{#story.hasTime}}<time datetime="{{story.timeMachine}}" data-relative>{{story.timeText}}</time>{{/story.hasTime}}</p>
        </div>
        </li>

        """#

    /// The kiosk's connection banner: invisible while live, unmissable when stale or
    /// failing, with what went wrong upstream.
    static let kioskStatus = #"""
        <div class="board-status board-status-{{badge.kind}}" id="status" role="status" aria-live="assertive">
        <span class="badge-dot" aria-hidden="true"></span><span class="badge-label">{{badge.label}}</span>
        {{#badge.problem}}<span class="badge-problem">{{badge.problem}}</span>{{/badge.problem}}
        </div>
        """#
}
