// Styling the element's shadow tree: one constructable stylesheet shared by every player on the page, or a <link>
// where a browser lacks them; the tree stays hidden until styled so nobody sees it unstyled.

/** The element's stylesheet, resolved next to the element's module so the player works from any folder. */
const STYLE_URL = new URL("../homeostat-chess.css", import.meta.url).href;

let styleSheet = null;
/** The element's stylesheet as a constructable sheet, or null where those are unsupported. */
function loadStyleSheet() {
  if (!("adoptedStyleSheets" in Document.prototype && "replace" in CSSStyleSheet.prototype)) return Promise.resolve(null);
  styleSheet ??= fetch(STYLE_URL)
    .then((response) => response.text())
    .then((text) => new CSSStyleSheet().replace(text))
    .catch(() => null);
  return styleSheet;
}

/**
 * Adopts the constructable stylesheet in `root`, or falls back to a <link>; its `.layout` stays hidden until
 * styled, then `styled` runs in the next frame (to fit the board to the styled box).
 * @param {ShadowRoot} root
 * @param {() => void} styled
 */
export function hideUntilStyled(root, styled) {
  const layout = root.querySelector(".layout");
  layout.hidden = true;
  loadStyleSheet().then((sheet) => {
    if (sheet) {
      root.adoptedStyleSheets = [sheet];
      layout.hidden = false;
    } else {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = STYLE_URL;
      link.addEventListener("load", () => (layout.hidden = false));
      link.addEventListener("error", () => (layout.hidden = false));
      root.prepend(link);
    }
    requestAnimationFrame(styled);
  });
}
