// The page around the player: light/dark theme toggle (kept in localStorage), the document title, and the service
// worker that lets the page install as an app and work offline (this page only: embedded players never register one).

import "./homeostat.js";
import { setUpPage } from "./page-shell.js";

const player = document.getElementById("player");

setUpPage(player, (el, event) => {
  if (el.handleShortcut?.(event)) event.preventDefault();
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
  // After the board is playable: installing downloads the whole build, which must not delay the first move.
  // Offline use is an extra: the page plays the same without it.
  Promise.all([player.ready, new Promise((resolve) => addEventListener("load", resolve, { once: true }))])
    .then(registerServiceWorker)
    .catch((err) => console.warn(`Homeostat works online only here: ${err.message}`));
}
