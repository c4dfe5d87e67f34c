// embed.html: copies the query parameters (?fen=…&player=black&level=3) onto the page's one player,
// for hosts that allow iframes but not scripts. Unknown parameters are named on the page, not ignored silently.

import { ATTRIBUTES } from "./ui/attributes.js";

const player = document.querySelector("homeostat-chess");
const unknown = [];
for (const [name, value] of new URLSearchParams(location.search)) {
  if (ATTRIBUTES.includes(name)) player.setAttribute(name, value);
  else unknown.push(name);
}
if (unknown.length) {
  const note = document.createElement("p");
  note.className = "frame-error";
  note.textContent = `Unknown parameter${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Known: ${ATTRIBUTES.join(", ")}.`;
  document.body.prepend(note);
}
// Defined only now, so the player starts with every parameter in place.
await import("./homeostat.js");
