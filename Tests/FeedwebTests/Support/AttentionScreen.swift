/// Scripts about the attention overlay of a board or a kiosk (`Public/attention.js`), for
/// the browser tests.
enum AttentionScreen {
    /// Whether the overlay is shown with its label and its entry inside the screen, nothing
    /// of either above its top or below its bottom. (An entry laid out as the kiosk's list
    /// lays it out, in six rows each as tall as the entry, pushed both off a 720-pixel
    /// screen, which showed nothing but its background for the whole attention.)
    static let onScreen = """
        var el = document.getElementById('attention');
        if (!el || el.hidden) return false;
        var root = el.shadowRoot || el;
        return ['.bd-attention-label', '.bd-attention-entry'].every(function (selector) {
          var part = root.querySelector(selector);
          if (!part) return false;
          var box = part.getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        });
        """

    /// The overlay's heading (a table's item's title), `''` without one.
    static let title = """
        var el = document.getElementById('attention');
        var title = el && (el.shadowRoot || el).querySelector('.bd-attention-title');
        return title ? title.textContent.trim() : '';
        """
}
