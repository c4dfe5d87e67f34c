// The checkers page around the player: the light/dark toggle (the same stored choice as the chess page) and the title.

import "../homeostat-checkers.js";
import { setUpPage } from "../page-shell.js";

const player = document.getElementById("player");

setUpPage(player, (el, event) => el.shortcut?.(event));

player.addEventListener("move", (event) => (document.title = `${event.detail.move} · Homeostat checkers`));
player.addEventListener("gameover", (event) => (document.title = `${event.detail.result} · Homeostat checkers`));
