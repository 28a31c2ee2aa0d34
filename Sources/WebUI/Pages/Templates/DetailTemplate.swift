extension Templates {
    /// `/items/{key}`: one story in full.
    static let detail = #"""
        <article class="detail" id="detail" data-key="{{story.key}}">
        <nav class="crumbs" aria-label="Breadcrumb"><a href="{{homeHref}}">Latest</a>{{#section}} › <a href="{{story.sectionHref}}">{{section}}</a>{{/section}}{{#subsection}} › <span>{{subsection}}</span>{{/subsection}}</nav>
        <p class="gone" id="gone" hidden>This story has left the feed. What you see is its last version.</p>
        <h1 class="detail-title">{{story.title}}</h1>
        {{#lede}}<p class="lede">{{lede}}</p>{{/lede}}
        <p class="meta">{{#story.byline}}<span class="byline">{{story.byline}}</span>{{/story.byline}}
        {{#published}}<span>Published <time datetime="{{publishedMachine}}" data-local>{{published}}</time></span>{{/published}}
        {{#updated}}<span>Updated <time datetime="{{updatedMachine}}" data-local>{{updated}}</time></span>{{/updated}}</p>
        {{#hasBody}}<div class="detail-body">{{#paragraphs}}{{#isHeading}}<h3>{{text}}</h3>{{/isHeading}}{{#isList}}{{#isNumbered}}<ol>{{/isNumbered}}{{^isNumbered}}<ul>{{/isNumbered}}{{#items}}<li>{{text}}</li>{{/items}}{{#isNumbered}}</ol>{{/isNumbered}}{{^isNumbered}}</ul>{{/isNumbered}}{{/isList}}{{^isHeading}}{{^isList}}<p>{{text}}</p>{{/isList}}{{/isHeading}}{{/paragraphs}}</div>{{/hasBody}}
        {{#original}}<p class="original"><a class="button" href="{{original}}" rel="noopener noreferrer" target="_blank">Read the original article<span class="visually-hidden"> (opens in a new tab)</span></a></p>{{/original}}
        {{#images}}
        <figure class="figure">
        <img src="{{url}}" alt="{{#caption}}{{caption}}{{/caption}}" loading="lazy" decoding="async"{{#width}} width="{{width}}"{{/width}}{{#height}} height="{{height}}"{{/height}} data-fallback="{{story.placeholder}}">
        {{#caption}}<figcaption>{{caption}}{{#credit}} <span class="credit">{{credit}}</span>{{/credit}}</figcaption>{{/caption}}
        {{^caption}}{{#credit}}<figcaption><span class="credit">{{credit}}</span></figcaption>{{/credit}}{{/caption}}
        </figure>
        {{/images}}
        {{#hasLinks}}
        <section class="related" aria-labelledby="related-heading">
        <h2 id="related-heading">Related</h2>
        <ul>{{#links}}<li><a href="{{url}}" rel="noopener noreferrer">{{text}}</a></li>{{/links}}</ul>
        </section>
        {{/hasLinks}}
        </article>
        """#

    /// 400, 404, 405: a plain page that says what happened.
    static let error = #"""
        <div class="error-page">
        <p class="error-code">{{code}}</p>
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        <p><a class="button" href="/">{{home}}</a></p>
        </div>
        """#
}
