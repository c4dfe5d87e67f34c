// The checkers page around the player: the light/dark toggle (the same stored choice as the chess page) and the title.

import "../homeostat-checkers.js";

const THEME_KEY = "homeostat.page-theme";
const root = document.documentElement;
const player = document.getElementById("player");

/** Applies "light", "dark" or null (follow the system) to the page and the player. */
function applyTheme(theme) {
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  if (theme) player.setAttribute("theme", theme);
  else player.removeAttribute("theme");
}

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
  if (!event.composedPath().includes(player)) player.shortcut?.(event);
});

player.addEventListener("move", (event) => (document.title = `${event.detail.move} · Homeostat checkers`));
player.addEventListener("gameover", (event) => (document.title = `${event.detail.result} · Homeostat checkers`));
