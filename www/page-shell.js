// What the site's pages (chess and checkers) share around their one player: the light/dark toggle, kept in
// localStorage under one key so both pages follow the same choice, and the player's shortcuts wherever the focus is.

const THEME_KEY = "homeostat.page-theme";

/**
 * Wires the page's theme toggle (#theme-toggle) and shortcuts to `player`.
 * @param {HTMLElement} player the page's player element
 * @param {(player: HTMLElement, event: KeyboardEvent) => void} shortcut hands a key to the player
 */
export function setUpPage(player, shortcut) {
  const root = document.documentElement;
  /** Applies "light", "dark" or null (follow the system) to the page and the player. */
  const applyTheme = (theme) => {
    if (theme) {
      root.dataset.theme = theme;
      player.setAttribute("theme", theme);
    } else {
      delete root.dataset.theme;
      player.removeAttribute("theme");
    }
  };
  try {
    applyTheme(localStorage.getItem(THEME_KEY));
  } catch {
    applyTheme(null);
  }
  document.getElementById("theme-toggle").addEventListener("click", () => {
    const current = root.dataset.theme ?? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    const next = current === "dark" ? "light" : "dark";
    applyTheme(next);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // The choice lasts until the page closes.
    }
  });
  // The page holds one player, so its shortcuts work wherever the focus is (keys inside the player reach it directly).
  document.addEventListener("keydown", (event) => {
    if (!event.composedPath().includes(player)) shortcut(player, event);
  });
}
