// The element's shadow DOM markup: board with evaluation bar, side panels, controls and dialogs.
// Each panel is its own part (data-part), so an embedding page can hide or move it.

import { ICONS } from "./icons.js";
import { STAND_INS } from "./thinking-panel.js";

/** A toolbar button. */
const button = (action, icon, label, key) =>
  `<button type="button" class="tool" data-action="${action}" title="${label}${key ? ` (${key})` : ""}" aria-label="${label}"${STARTS_DISABLED.includes(action) ? " disabled" : ""}>${ICONS[icon]}<span>${label}</span></button>`;

/** Buttons that the game enables when they apply (see panels.js), off until the player has started. */
const STARTS_DISABLED = ["undo", "redo", "move-now", "hint", "draw", "resign"];

/** The time control choice of the new-game and settings dialogs: presets, or a custom "minutes+seconds". */
const clockRow = `<label class="row">Clock <select name="clock"><option value="">None</option><option>3+2</option><option>5+3</option><option>10+5</option><option>15+10</option><option value="custom">Custom…</option></select>
      <input type="text" name="clockCustom" aria-label="Custom time control: minutes + seconds added per move" placeholder="minutes+seconds, e.g. 2+1" hidden></label>`;

/** The whole shadow tree as HTML (static text only; no inline styles or scripts). */
export const TEMPLATE = `
<div class="layout" data-show-thinking="panel">
  <div class="sr-only" id="announce" data-field="announce" aria-live="polite" aria-atomic="true"></div>
  <div class="board-column" data-part="board">
    <div class="player-bar top"><span class="player-dot"></span><span class="player-name" data-field="top-name"></span><canvas class="player-material" data-field="top-material" role="img" hidden></canvas><span class="player-points" data-field="top-points"></span><span class="player-note" data-field="top-note"></span><span class="player-clock" data-field="top-clock" role="timer" hidden></span></div>
    <div class="board-row">
      <div class="evalbar" data-part="evalbar" role="img"><div class="evalbar-white"></div><span class="evalbar-label"></span></div>
      <div class="board" data-part="canvas">
        <canvas class="board-canvas" role="application" aria-label="Chess board. Arrow keys move the focus square, Enter picks up and puts down a piece, Escape cancels." aria-describedby="announce"></canvas>
        <div class="board-banner" hidden></div>
      </div>
    </div>
    <div class="player-bar bottom"><span class="player-dot"></span><span class="player-name" data-field="bottom-name"></span><canvas class="player-material" data-field="bottom-material" role="img" hidden></canvas><span class="player-points" data-field="bottom-points"></span><span class="player-note" data-field="bottom-note"></span><span class="player-clock" data-field="bottom-clock" role="timer" hidden></span></div>
  </div>
  <aside class="side">
    <section class="panel status-panel" data-part="status">
      <div class="opening" data-field="opening"></div>
      <div class="status" data-field="status"></div>
      <button type="button" class="back-to-game" data-action="live" hidden>Back to game</button>
      <div class="game-end" hidden>
        <button type="button" class="after-game" data-action="review" hidden>Review the game</button>
        <button type="button" class="rematch" data-action="rematch" hidden>Rematch</button>
      </div>
      <form class="san-form" data-part="san">
        <input type="text" name="san" class="san-input" aria-label="Type a move in algebraic notation, such as Nf3" placeholder="Type a move: e4, Nf3, O-O" autocomplete="off" autocapitalize="off" spellcheck="false" enterkeyhint="go">
        <button type="submit" class="san-go">Play</button>
      </form>
      <p class="san-error" data-field="san-error" role="alert"></p>
      <div class="draw-offer" role="group" aria-label="Draw offer" hidden>
        <span>Homeostat offers a draw.</span>
        <button type="button" data-action="accept-draw">Accept</button>
        <button type="button" data-action="decline-draw">Decline</button>
      </div>
      <div class="viewer" data-part="viewer" hidden>
        <button type="button" data-action="first" aria-label="First position" title="First position (Home)">${ICONS.first}</button>
        <button type="button" data-action="prev" aria-label="Previous move" title="Previous move (←)">${ICONS.back}</button>
        <button type="button" data-action="next" aria-label="Next move" title="Next move (→)">${ICONS.forward}</button>
        <button type="button" data-action="last" aria-label="Last position" title="Last position (End)">${ICONS.last}</button>
      </div>
    </section>
    <section class="panel thinking" data-part="thinking" data-mode="idle" aria-label="Engine thinking">
      <header class="panel-head"><span class="pulse"></span><span data-field="mode">Starting</span><span class="score" data-field="score">–</span></header>
      <p class="line" data-field="line">${STAND_INS.loading}</p>
      <div class="engine-notice" role="group" aria-label="Engine unavailable" hidden>
        <button type="button" data-action="retry-engine">Try again</button>
        <button type="button" data-action="two-players">Play both sides</button>
      </div>
      <dl class="stats">
        <div><dt>Depth</dt><dd data-field="depth">–</dd></div>
        <div><dt>Positions</dt><dd data-field="nodes">–</dd></div>
        <div><dt>Speed</dt><dd data-field="nps">–</dd></div>
        <div><dt>Time</dt><dd data-field="time">–</dd></div>
      </dl>
      <p class="pv" data-field="pv"></p>
      <p class="net-note" data-field="net-note" role="status" hidden></p>
    </section>
    <section class="panel moves" data-part="moves" aria-label="Moves">
      <ol class="move-list"></ol>
    </section>
    <section class="panel graph" data-part="graph" hidden aria-label="Evaluation graph">
      <canvas class="graph-canvas"></canvas>
    </section>
    <div class="toolbar" data-part="controls">
      ${button("new", "plus", "New game", "n")}
      ${button("undo", "undo", "Take back", "Backspace")}
      ${button("redo", "redo", "Redo", "r")}
      ${button("flip", "flip", "Flip", "f")}
      ${button("move-now", "bolt", "Move now", "m")}
      ${button("hint", "bulb", "Hint", "h")}
      ${button("autoplay", "play", "Auto-play", "a")}
      ${button("draw", "half", "Offer draw", "d")}
      ${button("resign", "flag", "Resign", "")}
      ${button("review", "review", "Review", "")}
      ${button("analyse", "lines", "Analyse", "")}
      ${button("import-export", "share", "Import / export", "i")}
      ${button("editor", "edit", "Set up position", "")}
      ${button("settings", "gear", "Settings", "")}
      ${button("mute", "sound", "Sound", "s")}
      ${button("help", "help", "Help", "?")}
    </div>
  </aside>
</div>

<dialog class="dialog" data-dialog="new">
  <form method="dialog" class="dialog-form">
    <h2>New game</h2>
    <fieldset><legend>Mode</legend>
      <label><input type="radio" name="mode" value="hvc" checked> Human vs computer</label>
      <label><input type="radio" name="mode" value="hvh"> Human vs human</label>
      <label><input type="radio" name="mode" value="cvc"> Computer vs computer</label>
    </fieldset>
    <fieldset class="sides"><legend>You play</legend>
      <label><input type="radio" name="side" value="white" checked> White</label>
      <label><input type="radio" name="side" value="black"> Black</label>
      <label><input type="radio" name="side" value="random"> Random</label>
    </fieldset>
    <label class="row">Level <input type="range" name="level" min="1" max="8" step="1" value="4"><output data-field="level-out">4</output></label>
    <label class="row">Think time
      <select name="think">
        <option value="level">By level</option>
        <option value="1000">1 second</option>
        <option value="3000">3 seconds</option>
        <option value="10000">10 seconds</option>
        <option value="adaptive">Adaptive (0.5–5 s)</option>
      </select>
    </label>
${clockRow}
    <p class="error" data-field="clock-error" role="alert"></p>
    <label class="row check"><input type="checkbox" name="book" checked> Play from the opening book</label>
    <label class="stack">Start position (FEN, optional)
      <input type="text" name="fen" spellcheck="false" autocomplete="off" placeholder="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1">
    </label>
    <p class="error" data-field="new-error" role="alert"></p>
    <menu><button value="cancel" formnovalidate>Cancel</button><button value="start" class="primary">Start</button></menu>
  </form>
</dialog>

<dialog class="dialog" data-dialog="io">
  <form method="dialog" class="dialog-form">
    <h2>Import / export</h2>
    <label class="stack">PGN or FEN
      <textarea name="text" rows="9" spellcheck="false"></textarea>
    </label>
    <label class="stack" data-field="io-games" hidden>Game <select name="game"></select></label>
    <p class="error" data-field="io-error" role="alert"></p>
    <div class="row buttons">
      <button type="button" data-io="copy">Copy PGN</button>
      <button type="button" data-io="copy-fen">Copy FEN</button>
      <button type="button" data-io="download">Download .pgn</button>
      <label class="file-button">Open file…<input type="file" name="file" accept=".pgn,.fen,.txt,text/plain"></label>
    </div>
    <menu><button value="cancel" formnovalidate>Close</button><button type="button" data-io="load" class="primary">Load</button></menu>
  </form>
</dialog>

<dialog class="dialog" data-dialog="settings">
  <form method="dialog" class="dialog-form">
    <h2>Settings</h2>
    <label class="row">Board <select name="boardTheme"></select></label>
    <label class="row">Pieces <select name="pieceTheme"></select></label>
    <label class="row check"><input type="checkbox" name="coordinates"> Show coordinates</label>
    <label class="row check"><input type="checkbox" name="autoQueen"> Always promote to a queen</label>
    <label class="row check"><input type="checkbox" name="premoves"> Premoves while the engine thinks</label>
    <label class="row check"><input type="checkbox" name="book"> Engine plays from the opening book</label>
    <label class="row check"><input type="checkbox" name="analysis"> Analyse in human vs human games</label>
    <label class="row check"><input type="checkbox" name="sound"> Sounds</label>
${clockRow}
    <p class="hint-text">A new clock starts with the next game (at once before the first move).</p>
    <p class="error" data-field="clock-error" role="alert"></p>
    <menu><button value="done" class="primary">Done</button></menu>
  </form>
</dialog>

<dialog class="dialog" data-dialog="resign">
  <form method="dialog" class="dialog-form">
    <h2>Resign the game?</h2>
    <p class="hint-text" data-field="resign-text"></p>
    <menu><button value="cancel" class="primary" autofocus>Keep playing</button><button value="resign" class="danger">Resign</button></menu>
  </form>
</dialog>

<dialog class="dialog" data-dialog="help">
  <form method="dialog" class="dialog-form">
    <h2>Keyboard shortcuts</h2>
    <dl class="keys">
      <dt><kbd>n</kbd></dt><dd>New game</dd>
      <dt><kbd>←</kbd> <kbd>→</kbd></dt><dd>Previous / next move: look through the game without changing it</dd>
      <dt><kbd>Home</kbd> <kbd>End</kbd></dt><dd>Start position / back to the current position</dd>
      <dt><kbd>Backspace</kbd></dt><dd>Take back</dd>
      <dt><kbd>r</kbd></dt><dd>Redo a move taken back</dd>
      <dt><kbd>f</kbd></dt><dd>Flip the board</dd>
      <dt><kbd>m</kbd> <kbd>Space</kbd></dt><dd>Move now</dd>
      <dt><kbd>h</kbd></dt><dd>Hint</dd>
      <dt><kbd>a</kbd></dt><dd>Auto-play on / off</dd>
      <dt><kbd>+</kbd> <kbd>−</kbd></dt><dd>Deeper / shallower (level)</dd>
      <dt><kbd>d</kbd></dt><dd>Offer a draw</dd>
      <dt><kbd>i</kbd></dt><dd>Import / export</dd>
      <dt><kbd>s</kbd></dt><dd>Sound on / off</dd>
      <dt><kbd>?</kbd></dt><dd>This help</dd>
      <dt><kbd>Esc</kbd></dt><dd>Close a dialog; cancel a premove; back to the current position</dd>
    </dl>
    <p class="hint-text">With the keyboard: Tab to the board, move the focus square with the arrow keys, pick up and put down with Enter or Space, Escape to cancel; or type a move (Nf3, O-O) in the move box.</p>
    <p class="hint-text">Move by clicking or tapping a piece and then its square, or by dragging it with the mouse or a finger. Dots mark quiet moves, rings captures, dashed rings en passant, frames castling, diamonds promotion.</p>
    <p class="hint-text">While the engine thinks, move one of your pieces, or type the move, to set a premove (its squares turn blue): it is played as soon as the engine has moved, if it is legal then. Click elsewhere on the board or press Esc to cancel it; Settings turns premoves off.</p>
    <menu><button value="close" class="primary">Close</button></menu>
  </form>
</dialog>
`;
