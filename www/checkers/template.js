// The shadow tree of <homeostat-checkers>: board, side panel (status, thinking, moves, record) and its styles.
// The styles live here, inline, so the player shows styled from its first frame in every browser.

const STYLE = `
:host {
  --hk-bg: #ffffff;
  --hk-fg: #1f1e1b;
  --hk-muted: #6d685f;
  --hk-border: #e2ded6;
  --hk-soft: #f5f3ee;
  --hk-accent: #2f7d4a;
  --hk-accent-fg: #ffffff;
  --hk-danger: #b3261e;
  --hk-danger-bg: #fdecea;
  display: block;
  color: var(--hk-fg);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif;
  font-size: 14px;
  line-height: 1.4;
  container-type: inline-size;
}
:host([hidden]) { display: none; }
:host([theme="dark"]) {
  --hk-bg: #23211e; --hk-fg: #e8e5de; --hk-muted: #a29d92; --hk-border: #3a3733; --hk-soft: #2c2a26;
  --hk-accent: #5fb878; --hk-accent-fg: #10140f; --hk-danger: #ff8a80; --hk-danger-bg: #3b1f1c;
}
@media (prefers-color-scheme: dark) {
  :host(:not([theme="light"])) {
    --hk-bg: #23211e; --hk-fg: #e8e5de; --hk-muted: #a29d92; --hk-border: #3a3733; --hk-soft: #2c2a26;
    --hk-accent: #5fb878; --hk-accent-fg: #10140f; --hk-danger: #ff8a80; --hk-danger-bg: #3b1f1c;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.layout { display: flex; gap: 18px; align-items: flex-start; justify-content: center; }
.board-wrap { flex: 0 1 auto; width: min(100%, 640px, calc(100vh - 150px)); min-width: 240px; }
.board-frame { padding: 10px; border-radius: 14px; background: linear-gradient(145deg, #5b3b25, #3d2716); box-shadow: 0 10px 30px rgba(0,0,0,0.25); }
canvas { display: block; width: 100%; aspect-ratio: 1 / 1; border-radius: 4px; touch-action: manipulation; cursor: pointer; }
canvas:focus { outline: none; }
canvas:focus-visible { outline: 3px solid #3d8bfd; outline-offset: 3px; }
.side { flex: 0 1 340px; min-width: 260px; display: flex; flex-direction: column; gap: 10px; }
.card { background: var(--hk-bg); border: 1px solid var(--hk-border); border-radius: 12px; padding: 12px 14px; box-shadow: 0 1px 2px rgba(0,0,0,0.05); }
.status { font-weight: 650; font-size: 15px; display: flex; align-items: center; gap: 8px; }
.turn-dot { width: 14px; height: 14px; border-radius: 50%; flex: none; border: 1px solid var(--hk-muted); }
.turn-dot[data-color="b"] { background: #2a2826; }
.turn-dot[data-color="w"] { background: #f3ecdc; }
.turn-dot[data-color=""] { display: none; }
.hint { color: var(--hk-muted); font-size: 13px; margin-top: 4px; }
.hint:empty { display: none; }
.material { margin-top: 6px; color: var(--hk-muted); font-size: 12px; font-variant-numeric: tabular-nums; }
.hint[data-tone="warn"] { color: var(--hk-danger); font-weight: 600; }
.error { color: var(--hk-danger); background: var(--hk-danger-bg); border-color: transparent; display: flex; gap: 8px; align-items: flex-start; }
.error p { margin: 0; flex: 1; overflow-wrap: anywhere; }
.error button { flex: none; }
.thinking .mode { font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--hk-muted); display: flex; align-items: center; gap: 6px; }
.thinking[data-active] .mode::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--hk-accent); animation: pulse 1s ease-in-out infinite; }
@keyframes pulse { 50% { opacity: 0.25; } }
.thinking .line { margin-top: 6px; font-variant-numeric: tabular-nums; min-height: 2.8em; }
.thinking .details { margin-top: 4px; color: var(--hk-muted); font-size: 12px; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.moves-card { padding: 0; overflow: hidden; }
.moves-card h2, .record summary { margin: 0; padding: 9px 14px; font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--hk-muted); font-weight: 650; }
.moves { list-style: none; margin: 0; padding: 0 6px 8px; max-height: 220px; overflow-y: auto; display: grid; grid-template-columns: 2.6em 1fr 1fr; font-variant-numeric: tabular-nums; }
.moves li { display: contents; }
.moves span { padding: 3px 8px; border-radius: 6px; }
.moves .num { color: var(--hk-muted); text-align: right; padding-right: 4px; }
.moves .last { background: var(--hk-soft); font-weight: 650; }
.moves li.empty { display: block; grid-column: 1 / -1; color: var(--hk-muted); padding: 4px 8px; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; }
.controls label { display: flex; flex-direction: column; gap: 3px; font-size: 12px; color: var(--hk-muted); flex: 1 1 120px; }
select, button, textarea { font: inherit; color: inherit; }
select { padding: 6px 8px; border-radius: 8px; border: 1px solid var(--hk-border); background: var(--hk-soft); }
.toolbar { display: flex; gap: 6px; flex-wrap: wrap; }
button { padding: 6px 10px; border-radius: 8px; border: 1px solid var(--hk-border); background: var(--hk-soft); cursor: pointer; font-weight: 600; }
button:hover:not(:disabled) { border-color: var(--hk-muted); }
button:disabled { opacity: 0.45; cursor: default; }
button.primary { background: var(--hk-accent); color: var(--hk-accent-fg); border-color: transparent; }
button:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid #3d8bfd; outline-offset: 1px; }
.record { padding: 0; }
.record summary { cursor: pointer; }
.record .body { padding: 0 14px 12px; display: flex; flex-direction: column; gap: 8px; }
textarea { width: 100%; min-height: 90px; resize: vertical; border-radius: 8px; border: 1px solid var(--hk-border); background: var(--hk-soft); padding: 8px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@container (max-width: 700px) {
  .layout { flex-direction: column; align-items: stretch; gap: 12px; }
  .board-wrap { width: 100%; max-width: 560px; margin: 0 auto; min-width: 0; }
  .board-frame { padding: 6px; border-radius: 10px; }
  .side { flex: none; min-width: 0; }
  .moves { max-height: 160px; }
}
`;

/** The element's shadow tree. */
export const TEMPLATE = `
<style>${STYLE}</style>
<div class="layout">
  <div class="board-wrap">
    <div class="board-frame">
      <canvas class="board" tabindex="0" role="application" aria-roledescription="checkers board" aria-label="Checkers board"></canvas>
    </div>
  </div>
  <div class="side">
    <div class="card">
      <div class="status"><span class="turn-dot" data-field="turn-dot" data-color=""></span><span data-field="status">Loading…</span></div>
      <div class="hint" data-field="hint"></div>
      <div class="material" data-field="material"></div>
    </div>
    <div class="card error" role="alert" hidden><p data-field="error"></p><button type="button" data-action="dismiss" aria-label="Dismiss the message">✕</button></div>
    <div class="card thinking">
      <div class="mode" data-field="mode">Engine idle</div>
      <div class="line" data-field="line">Waiting.</div>
      <div class="details" data-field="details"></div>
    </div>
    <div class="card moves-card">
      <h2 id="moves-title">Moves</h2>
      <ol class="moves" data-field="moves" aria-labelledby="moves-title"></ol>
    </div>
    <div class="card controls-card">
      <div class="controls">
        <label>You play
          <select data-control="player">
            <option value="black">Black (moves first)</option>
            <option value="white">White</option>
            <option value="both">Both sides</option>
            <option value="none">Neither: watch</option>
          </select>
        </label>
        <label>Level
          <select data-control="level">
            <option value="1">1 · beginner</option><option value="2">2</option><option value="3">3</option>
            <option value="4">4</option><option value="5">5</option><option value="6">6</option>
            <option value="7">7</option><option value="8">8 · strongest</option>
          </select>
        </label>
      </div>
      <div class="toolbar" style="margin-top: 10px">
        <button type="button" class="primary" data-action="new">New game</button>
        <button type="button" data-action="undo" aria-keyshortcuts="Backspace">Undo</button>
        <button type="button" data-action="redo" aria-keyshortcuts="r">Redo</button>
        <button type="button" data-action="flip" aria-keyshortcuts="f">Flip</button>
      </div>
    </div>
    <details class="card record">
      <summary>Game record (PDN)</summary>
      <div class="body">
        <textarea data-field="pdn" spellcheck="false" aria-label="The game in PDN; paste a game or a FEN here to load it"></textarea>
        <div class="toolbar">
          <button type="button" data-action="load">Load</button>
          <button type="button" data-action="copy">Copy</button>
        </div>
      </div>
    </details>
  </div>
  <div class="sr-only" aria-live="polite" data-field="announce"></div>
</div>
`;
