// The messages between the page and the engine's worker, defined once for both sides.

/**
 * What to search. Only the fields below are allowed; the Rust side rejects anything else.
 * At least one limit is required (movetimeMs, depth, nodes, thinkMinMs with thinkMaxMs, or a level below 8).
 * @typedef {object} SearchRequest
 * @property {string} [fen] start position (the standard one when absent)
 * @property {string[]} [moves] moves played from `fen`, in UCI
 * @property {number} [level] 1 (weakest) to 8 (full strength, the default)
 * @property {number} [movetimeMs] think exactly this long
 * @property {number} [depth] depth limit in plies
 * @property {number} [nodes] node limit
 * @property {number} [thinkMinMs] adaptive think time: least per move (with thinkMaxMs)
 * @property {number} [thinkMaxMs] adaptive think time: most per move (with thinkMinMs)
 * @property {boolean} [useBook] play an opening-book move when the position is in the book
 * @property {number} [seed] seed for the book's and the weaker levels' random choices
 */

/**
 * A score: centipawns or mate in moves (negative when being mated).
 * @typedef {{cp: number} | {mate: number}} Score
 */

/**
 * A root move is being searched (at most about 20 a second).
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
 */

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
 * @property {boolean} [stopped] set by EngineClient.moveNow: the best move found before the search was cut short
 */

/**
 * Page → worker.
 * @typedef {({type: "search", id: number | string} & SearchRequest)
 *   | {type: "newgame"}
 *   | {type: "ping"}
 *   | {type: "draw", id: number | string, fen?: string, moves?: string[]}} ToWorker
 */

/**
 * Worker → page. `fatal` errors mean the engine crashed or failed to load: start a new worker.
 * @typedef {{type: "ready"}
 *   | {type: "progress", id: number | string, event: ProgressEvent}
 *   | ({type: "result", id: number | string} & SearchResult)
 *   | {type: "draw", id: number | string, accepts: boolean}
 *   | {type: "error", id?: number | string, message: string, fatal?: boolean}} FromWorker
 */

/** Message types the worker understands. */
export const TO_WORKER_TYPES = ["search", "newgame", "ping", "draw"];

/**
 * Checks the envelope of a page → worker message (the Rust side checks the search fields).
 * @param {unknown} message
 * @returns {string | null} what is wrong, or null when it is well formed
 */
export function checkToWorker(message) {
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return "a message must be an object with a type";
  }
  const { type, id } = /** @type {Record<string, unknown>} */ (message);
  if (typeof type !== "string" || !TO_WORKER_TYPES.includes(type)) {
    return `unknown message type ${JSON.stringify(type)} (expected one of ${TO_WORKER_TYPES.join(", ")})`;
  }
  if ((type === "search" || type === "draw") && typeof id !== "number" && typeof id !== "string") {
    return `a ${type} message needs an id (number or string)`;
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
