// The messages between the page and the engine's worker, defined once for both sides: the field lists below
// mirror the Rust structs in crates/web (request.rs, events.rs), and tests/node/protocol.test.js fails when the
// two drift apart. The client checks a request with these before sending it; the worker checks what it receives.

/**
 * What to search. Only the fields below are allowed; the Rust side rejects anything else.
 * A request with no limit at level 8 thinks for the level's default time; the player always sends one.
 * @typedef {object} SearchRequest
 * @property {string} [fen] start position (the standard one when absent)
 * @property {string[]} [moves] moves played from `fen`, in UCI
 * @property {number} [level] 1 (weakest) to 8 (full strength, the default)
 * @property {number} [movetimeMs] think exactly this long
 * @property {number} [depth] depth limit in plies
 * @property {number} [nodes] node limit
 * @property {number} [thinkMinMs] adaptive think time: least per move (with thinkMaxMs)
 * @property {number} [thinkMaxMs] adaptive think time: most per move (with thinkMinMs)
 * @property {number} [wtimeMs] White's clock (with btimeMs), as UCI's wtime: the engine budgets its own time
 * @property {number} [btimeMs] Black's clock
 * @property {number} [wincMs] White's increment per move
 * @property {number} [bincMs] Black's increment per move
 * @property {boolean} [useBook] play an opening-book move when the position is in the book
 * @property {number} [seed] seed for the book's and the weaker levels' random choices
 * @property {"play" | "hint" | "analyse"} [purpose] only a "play" search counts towards resigning or offers a draw
 * @property {number} [multipv] how many best lines to report, 1 (the default) to 5; each comes as an iteration event
 */

/** The kinds of value a field holds, for the checks below. */
const KINDS = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  strings: (v) => Array.isArray(v) && v.every((s) => typeof s === "string"),
  score: (v) => v !== null && typeof v === "object" && (Number.isFinite(v.cp) || Number.isFinite(v.mate)),
  stringOrNull: (v) => v === null || typeof v === "string",
};

/** What a search may ask for: the field names of Rust's `SearchRequest`, with their kinds. */
export const SEARCH_REQUEST_FIELDS = {
  fen: "string",
  moves: "strings",
  level: "number",
  movetimeMs: "number",
  depth: "number",
  nodes: "number",
  thinkMinMs: "number",
  thinkMaxMs: "number",
  wtimeMs: "number",
  btimeMs: "number",
  wincMs: "number",
  bincMs: "number",
  useBook: "boolean",
  seed: "number",
  purpose: "string",
  multipv: "number",
};

/** Why a search runs: only "play" searches change the engine's game state (resignation, draw offers). */
export const PURPOSES = ["play", "hint", "analyse"];

/**
 * A score: centipawns or mate in moves (negative when being mated).
 * @typedef {{cp: number} | {mate: number}} Score
 */

/**
 * A root move is being searched (at most every 50 ms at full strength; every one at the weaker levels). A search
 * that ends on its own, not stopped, sends one more for the move chosen, with the final depth, nodes and score.
 * @typedef {object} RootEvent
 * @property {"root"} type
 * @property {string} text e.g. "Considering c5 (21) of 30 moves, 39 replies, 1,852,544 positions: Bc5 (+0.48)"
 * @property {string} move the move being searched, in SAN
 * @property {string} uci the move being searched, in UCI
 * @property {number} index its place in the order, from 1
 * @property {number} count number of legal moves
 * @property {number} replies legal replies to it
 * @property {number} depth iteration depth
 * @property {number} nodes nodes so far
 * @property {string} best best move so far, in SAN
 * @property {string} bestUci best move so far, in UCI
 * @property {Score} score its score, side to move's view
 * @property {Score} scoreWhite its score, White's view
 */

/** The fields of a `root` event (Rust's `RootJs`), with their kinds. */
export const ROOT_EVENT_FIELDS = {
  type: "string",
  text: "string",
  move: "string",
  uci: "string",
  index: "number",
  count: "number",
  replies: "number",
  depth: "number",
  nodes: "number",
  best: "string",
  bestUci: "string",
  score: "score",
  scoreWhite: "score",
};

/**
 * A depth finished or the principal variation changed.
 * @typedef {object} IterationEvent
 * @property {"iteration"} type
 * @property {number} depth
 * @property {number} seldepth
 * @property {Score} score side to move's view
 * @property {Score} scoreWhite White's view
 * @property {"exact" | "lower" | "upper"} bound
 * @property {number} nodes
 * @property {number} nps
 * @property {number} elapsedMs
 * @property {number} hashfull per mille
 * @property {string[]} pv the expected line in SAN
 * @property {string[]} pvUci the expected line in UCI
 * @property {number} multipv which line this is (MultiPV), from 1: the best
 */

/** The fields of an `iteration` event (Rust's `IterationJs`), with their kinds. */
export const ITERATION_EVENT_FIELDS = {
  type: "string",
  depth: "number",
  seldepth: "number",
  score: "score",
  scoreWhite: "score",
  bound: "string",
  nodes: "number",
  nps: "number",
  elapsedMs: "number",
  hashfull: "number",
  pv: "strings",
  pvUci: "strings",
  multipv: "number",
};

/** @typedef {RootEvent | IterationEvent} ProgressEvent */

/**
 * What a search decided.
 * @typedef {object} SearchResult
 * @property {string | null} best the move to play in UCI (null: no legal move)
 * @property {string | null} bestSan the move in SAN
 * @property {string | null} ponder the expected reply in UCI
 * @property {Score} score side to move's view
 * @property {Score} scoreWhite White's view
 * @property {boolean} resign whether the engine resigns instead of moving
 * @property {number} depth completed depth
 * @property {number} nodes nodes searched
 * @property {number} elapsedMs milliseconds spent
 * @property {string[]} pvUci the expected line in UCI
 * @property {boolean} book whether the move came from the opening book
 * @property {boolean} offerDraw whether the engine offers a draw with its move (a "play" search only)
 * @property {boolean} [stopped] set by EngineClient.moveNow: the best move found before the search was cut short
 */

/** The fields of a search result (Rust's `ResultJs`), with their kinds. */
export const SEARCH_RESULT_FIELDS = {
  best: "stringOrNull",
  bestSan: "stringOrNull",
  ponder: "stringOrNull",
  score: "score",
  scoreWhite: "score",
  resign: "boolean",
  depth: "number",
  nodes: "number",
  elapsedMs: "number",
  pvUci: "strings",
  book: "boolean",
  offerDraw: "boolean",
};

/**
 * Page → worker. `color` of a draw question is the side the engine plays ("w" or "b").
 * @typedef {({type: "search", id: number | string} & SearchRequest)
 *   | {type: "newgame"}
 *   | {type: "ping"}
 *   | {type: "draw", id: number | string, fen?: string, moves?: string[], color: "w" | "b"}
 *   | {type: "book", bytes: Uint8Array | null}} ToWorker
 * A worker started with `?book=page` takes the opening book (pkg/openings.bin) from the page's `book` message (null:
 * the page has none) instead of downloading it again, and answers nothing else until it came.
 */

/**
 * Worker → page. `fatal` errors mean the engine crashed or failed to load: start a new worker. `ready` says
 * whether searches at the levels that use a net (`levelUsesNet`) evaluate with it (`net`), and when not, why
 * (`netError`).
 * @typedef {{type: "ready", net?: boolean, netError?: string}
 *   | {type: "progress", id: number | string, event: ProgressEvent}
 *   | ({type: "result", id: number | string} & SearchResult)
 *   | {type: "draw", id: number | string, accepts: boolean}
 *   | {type: "error", id?: number | string, message: string, fatal?: boolean}} FromWorker
 */

/** Message types the worker understands. */
export const TO_WORKER_TYPES = ["search", "newgame", "ping", "draw", "book"];

/** Message types the worker sends. */
export const FROM_WORKER_TYPES = ["ready", "progress", "result", "draw", "error"];

/**
 * Checks the fields of a search request against {@link SEARCH_REQUEST_FIELDS} (names and kinds; the Rust side
 * checks ranges and the position).
 * @param {Record<string, unknown>} request
 * @returns {string | null} what is wrong, or null
 */
export function checkSearchRequest(request) {
  for (const [key, value] of Object.entries(request)) {
    const kind = SEARCH_REQUEST_FIELDS[key];
    if (!kind) return `bad search request: unknown field \`${key}\`, expected one of ${Object.keys(SEARCH_REQUEST_FIELDS).join(", ")}`;
    if (value === undefined) continue;
    if (!KINDS[kind](value)) return `bad search request: ${key} must be ${describeKind(kind)}, not ${JSON.stringify(value)}`;
  }
  if (request.purpose !== undefined && !PURPOSES.includes(/** @type {string} */ (request.purpose))) {
    return `bad search request: purpose must be one of ${PURPOSES.join(", ")}, not ${JSON.stringify(request.purpose)}`;
  }
  return null;
}

/**
 * Checks a record against a field list: the names missing and the names not in the list.
 * @param {Record<string, unknown>} record
 * @param {Record<string, string>} fields
 * @returns {string | null} what differs, or null
 */
export function checkFields(record, fields) {
  const missing = Object.keys(fields).filter((key) => !(key in record));
  const extra = Object.keys(record).filter((key) => !(key in fields));
  const wrong = Object.keys(fields).filter((key) => key in record && !KINDS[fields[key]](record[key]));
  if (!missing.length && !extra.length && !wrong.length) return null;
  const parts = [];
  if (missing.length) parts.push(`missing ${missing.join(", ")}`);
  if (extra.length) parts.push(`unexpected ${extra.join(", ")}`);
  if (wrong.length) parts.push(`wrong kind of ${wrong.join(", ")}`);
  return parts.join("; ");
}

/** Words for a kind, for messages. */
function describeKind(kind) {
  return { strings: "an array of strings", score: "a score", stringOrNull: "a string or null" }[kind] ?? `a ${kind}`;
}

/**
 * Checks a page → worker message: its type, id and, for a search, its request fields.
 * @param {unknown} message
 * @returns {string | null} what is wrong, or null when it is well formed
 */
export function checkToWorker(message) {
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return "a message must be an object with a type";
  }
  const record = /** @type {Record<string, unknown>} */ (message);
  const { type, id } = record;
  if (typeof type !== "string" || !TO_WORKER_TYPES.includes(type)) {
    return `unknown message type ${JSON.stringify(type)} (expected one of ${TO_WORKER_TYPES.join(", ")})`;
  }
  if ((type === "search" || type === "draw") && typeof id !== "number" && typeof id !== "string") {
    return `a ${type} message needs an id (number or string)`;
  }
  if (type === "search") return checkSearchRequest(requestOf(record));
  if (type === "book" && record.bytes !== null && !(record.bytes instanceof Uint8Array)) {
    return "a book message needs the bytes of pkg/openings.bin (a Uint8Array) or null";
  }
  if (type === "draw" && record.color !== "w" && record.color !== "b") {
    return `a draw message needs the engine's color, "w" or "b" (not ${JSON.stringify(record.color)})`;
  }
  return null;
}

/**
 * The request part of a search message: everything but `type` and `id`.
 * @param {Record<string, unknown>} message
 * @returns {SearchRequest}
 */
export function requestOf(message) {
  const { type: _type, id: _id, ...request } = message;
  return /** @type {SearchRequest} */ (request);
}
