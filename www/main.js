// The page around the player: light/dark theme toggle (kept in localStorage), the document title, and the service
// worker that lets the page install as an app and work offline (this page only: embedded players never register one).

import "./homeostat.js";

const THEME_KEY = "homeostat.page-theme";
const root = document.documentElement;
const player = document.getElementById("player");

/** Applies "light", "dark" or null (follow the system) to the page and the player. */
function applyTheme(theme) {
  if (theme) {
    root.dataset.theme = theme;
    player.setAttribute("theme", theme);
  } else {
    delete root.dataset.theme;
    player.removeAttribute("theme");
  }
}

/** The stored page theme, or null. */
function storedTheme() {
  try {
    return localStorage.getItem(THEME_KEY);
  } catch {
    return null;
  }
}

applyTheme(storedTheme());

document.getElementById("theme-toggle").addEventListener("click", () => {
  const current = root.dataset.theme ?? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const next = current === "dark" ? "light" : "dark";
  applyTheme(next);
  try {
    localStorage.setItem(THEME_KEY, next);
  } catch {
    // Not kept across reloads; fine.
  }
});

// The page holds one player, so its shortcuts work wherever the focus is (keys inside the player reach it directly).
document.addEventListener("keydown", (event) => {
  if (event.composedPath().includes(player)) return;
  if (player.handleShortcut?.(event)) event.preventDefault();
});

player.addEventListener("move", (event) => {
  document.title = `${event.detail.san} · Homeostat`;
});
player.addEventListener("gameover", (event) => {
  document.title = `${event.detail.result} · Homeostat`;
});

/** Registers sw.js under this build's id (pkg/build.json), so a new build replaces the cached one. */
async function registerServiceWorker() {
  const response = await fetch("pkg/build.json", { cache: "no-cache" });
  if (!response.ok) throw new Error(`pkg/build.json: HTTP ${response.status}`);
  const { id } = await response.json();
  await navigator.serviceWorker.register(`sw.js?build=${encodeURIComponent(id)}`);
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  addEventListener("load", () => {
    // Offline use is an extra: the page plays the same without it.
    registerServiceWorker().catch((err) => console.warn(`Homeostat works online only here: ${err.message}`));
  });
}
