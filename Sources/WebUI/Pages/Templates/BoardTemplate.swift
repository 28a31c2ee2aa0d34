extension Templates {
    /// `/board`: several views on one page and one page stream. Each cell is its own shadow
    /// root (declarative, so the ids of each view's page, `#stories`, `#count`, `#status`,
    /// repeat without clashing), holding the view's `<main>` as its own page renders it and
    /// the stylesheets linked again inside it. `Public/board.js` rotates the cells and cares
    /// for the panel, `Public/attention.js` shows marked items; `Public/app.js` keeps every cell
    /// live.
    static let board = #"""
        <!DOCTYPE html>
        <html lang="en" class="kiosk">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="dark">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/static/style.css?v={{assetVersion}}">
        <link rel="stylesheet" href="/static/kiosk.css?v={{assetVersion}}">
        <link rel="stylesheet" href="/static/board.css?v={{assetVersion}}">
        <link rel="icon" href="/static/favicon.svg?v={{assetVersion}}" type="image/svg+xml">
        {{#isTable}}<script src="/static/cells.js?v={{assetVersion}}" defer></script>{{/isTable}}
        <script src="/static/showings.js?v={{assetVersion}}" defer></script>
        <script src="/static/board.js?v={{assetVersion}}" defer></script>
        <script src="/static/attention.js?v={{assetVersion}}" defer></script>
        <script src="/static/times.js?v={{assetVersion}}" defer></script>
        <script src="/static/app.js?v={{assetVersion}}" defer></script>
        </head>
        <body class="page-board" data-stream="board" data-cols="{{columns}}" data-rotate="{{rotate}}" data-attention="{{attention}}" data-shift="{{shift}}" data-dim="{{dim}}"{{#waiting}} data-waiting{{/waiting}}>
        {{>kioskStatus}}
        <main class="bd-grid" id="board" data-cols="{{columns}}" data-cells="{{cellCount}}">
        {{#cells}}<section class="bd-cell" data-view="{{name}}" data-spec="{{spec}}" aria-label="{{name}}">
        <template shadowrootmode="open">
        <link rel="stylesheet" href="/static/style.css?v={{assetVersion}}">
        <link rel="stylesheet" href="/static/kiosk.css?v={{assetVersion}}">
        <link rel="stylesheet" href="/static/board.css?v={{assetVersion}}">
        <div class="bd-page {{pageClass}}">{{{main}}}</div>
        </template>
        </section>
        {{/cells}}
        </main>
        </body>
        </html>

        """#
}
