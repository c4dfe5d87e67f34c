// The shared chess memory from the player's side (the `memory` attribute; the service is crates/memory): look a
// position up before a full-strength search, submit what a search found. The element loads this module only when
// the attribute is set, so a player without it makes no request outside its own folder.
//
// It runs on the page's main thread, beside the game controller, not in the engine's worker: fetch is
// asynchronous, so the page never waits on the network; the worker is busy inside wasm for a whole search and is
// terminated to stop one (a submission in flight would die with it); the client token is kept in localStorage,
// which workers do not have; and only the controller knows why a search runs and holds the rules that check a
// stored move before it is played.

/** How long a lookup may take before the engine searches on its own (the applet waited five seconds). */
export const LOOKUP_TIMEOUT_MS = 300;
/**
 * How long a request (a lookup or a submission) may go unanswered before the memory is said offline. A busy machine
 * or a slow network can miss the lookup's 300 ms while the memory works: the engine searches, and the late answer
 * still counts. The server holds a submission up to 500 ms for its spot-check.
 */
const ANSWER_TIMEOUT_MS = 5000;
/**
 * Lookups in a row answered properly but after their time before the memory is said slow: it works, yet the engine
 * searches every move on its own, and the person should know why no move comes from it.
 */
export const SLOW_AFTER = 3;
/** How long asking the server which engine it serves may take. */
const STATS_TIMEOUT_MS = 3000;
/** After a failure the memory rests this long (no requests) before it is tried again. */
const REST_MS = 30_000;
/** The most PV moves the service takes. */
const MAX_PV = 128;
/** The client token's storage key. */
const CLIENT_KEY = "homeostat.memory-client.v1";
/** This build's engine identity, written next to the package by `make wasm` (tools/engine-identity.mjs). */
const IDENTITY_URL = new URL("../pkg/engine-identity.json", import.meta.url);

/**
 * The depth a full-strength search is expected to complete in `ms` before this page has measured any: fitted to
 * the wasm engine under V8 on a busy 2-core machine (the median over four positions: 9 at 300 ms, 12 at 1 s, 15
 * at 3 s). A faster machine goes deeper; the page's own measurements (below) take over from its first search.
 * @param {number} ms
 */
export function typicalDepth(ms) {
  return Math.max(1, Math.min(99, Math.round(12 + 1.8 * Math.log2(Math.max(ms, 10) / 1000))));
}

/** Depths this page's engine completed in its recent full-strength searches, by think time (newest last). */
const pageDepths = new Map();

/**
 * Records the depth a full-strength search of `ms` completed.
 * @param {number} ms
 * @param {number} depth
 * @param {Map<number, number[]>} [table]
 */
export function noteDepth(ms, depth, table = pageDepths) {
  const seen = table.get(ms) ?? [];
  seen.push(depth);
  table.set(ms, seen.slice(-5));
}

/**
 * The depth a search of `ms` would complete here: the median of the last five this page's engine completed with
 * that time (one deep endgame does not raise the bar), or {@link typicalDepth} before any. A stored move is
 * played only when it was searched at least this deep.
 * @param {number} ms
 * @param {Map<number, number[]>} [table]
 */
export function expectedDepth(ms, table = pageDepths) {
  const seen = table.get(ms);
  if (!seen?.length) return typicalDepth(ms);
  const sorted = [...seen].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

let identity = null;
/** This build's engine name, as the service writes it ("Homeostat VERSION bench NODES"); read once per page. */
function loadIdentity() {
  identity ??= fetch(IDENTITY_URL)
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then((json) => (typeof json?.engine === "string" ? json.engine : Promise.reject(new Error("no engine field"))))
    .catch((err) => {
      identity = null;
      throw new Error(`this player's engine identity (pkg/engine-identity.json) could not be read: ${err.message}`);
    });
  return identity;
}

/**
 * Submissions a page sends a minute at most: the service's limit per client token (30 a minute, a burst of 30), so
 * that a fast game of engine against engine spends no requests on certain refusals.
 */
const SUBMITS_PER_MINUTE = 30;
/** How long a page stops submitting after the service answers 429 (its limit is shared with other tabs). */
const RATE_PAUSE_MS = 60_000;

/** A token bucket of submissions: {@link SUBMITS_PER_MINUTE}, refilled continuously, paused after a 429. */
export class SubmitBudget {
  /** @param {number} [perMinute] */
  constructor(perMinute = SUBMITS_PER_MINUTE) {
    this.perMinute = perMinute;
    this.tokens = perMinute;
    this.at = null;
    this.pausedUntil = 0;
  }

  /**
   * Takes one submission's token at time `now` (ms); false when none is left or the budget is paused.
   * @param {number} now
   */
  take(now) {
    if (now < this.pausedUntil) return false;
    if (this.at !== null) this.tokens = Math.min(this.perMinute, this.tokens + ((now - this.at) * this.perMinute) / 60_000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /**
   * The service said 429 at `now`: nothing is sent for {@link RATE_PAUSE_MS}.
   * @param {number} now
   */
  pause(now) {
    this.pausedUntil = now + RATE_PAUSE_MS;
    this.tokens = 0;
    this.at = this.pausedUntil;
  }
}

/** This page's submissions, shared by its players (they share one client token). */
const pageBudget = new SubmitBudget();

/** The engine each memory serves, by URL, asked once per page (GET /v1/stats). */
const served = new Map();

let pageToken = null;
/**
 * A random token that names this browser to the memory (confirmations, rate limits): kept in localStorage, or for
 * the page's life where storage is unavailable.
 * @param {Storage | undefined} storage
 */
export function clientToken(storage) {
  try {
    const kept = storage?.getItem(CLIENT_KEY);
    if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
  } catch {
    // Storage disabled: the page's token below.
  }
  pageToken ??= [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  try {
    storage?.setItem(CLIENT_KEY, pageToken);
  } catch {
    // Not kept: a new token next visit.
  }
  return pageToken;
}

/** A failure that says why, for the "memory offline" notice. */
class MemoryError extends Error {}

/**
 * One player's view of a memory at `url`: lookups, submissions and whether it is offline.
 * `onstatus` is called with `{offline: true, reason}` when it goes offline, `{offline: false, slow: true, reason}` when
 * {@link SLOW_AFTER} lookups in a row answered too late to be used, and `{offline: false}` when it answers (in time)
 * again.
 */
export class SharedMemory {
  /**
   * @param {string} url the memory's base URL, ending in "/"
   * @param {object} [options]
   * @param {typeof fetch} [options.fetch]
   * @param {string | (() => Promise<string>)} [options.engine] this player's engine identity
   * @param {Storage} [options.storage] where the client token is kept
   * @param {number} [options.timeoutMs] how long a lookup waits before the engine searches
   * @param {number} [options.answerMs] how long a request may go unanswered before the memory is offline
   * @param {Map<number, number[]>} [options.depths] recent depths by think time (the page's by default)
   * @param {() => number} [options.now]
   * @param {SubmitBudget} [options.budget] submissions allowed (the page's by default)
   */
  constructor(url, { fetch: fetcher, engine = loadIdentity, storage, timeoutMs = LOOKUP_TIMEOUT_MS, answerMs = ANSWER_TIMEOUT_MS, depths = pageDepths, now = Date.now, budget = pageBudget } = {}) {
    this.url = url;
    this.fetch = fetcher ?? ((...args) => globalThis.fetch(...args));
    this.engine = typeof engine === "string" ? () => Promise.resolve(engine) : engine;
    this.storage = storage ?? safeLocalStorage();
    this.timeoutMs = timeoutMs;
    this.answerMs = answerMs;
    this.depths = depths;
    this.now = now;
    this.budget = budget;
    this.offline = false;
    /** Whether the last lookups all answered after their time (see {@link SLOW_AFTER}). */
    this.slow = false;
    /** Lookups in a row answered after their time, and the slowest of them in ms. */
    this.late = ON_TIME;
    this.reason = "";
    this.restUntil = 0;
    /** When the memory last failed (`now()`): answers to requests sent before then do not bring it back. */
    this.failedAt = -Infinity;
    /** @type {((status: {offline: boolean, reason?: string}) => void) | null} */
    this.onstatus = null;
    /** @type {Promise<string> | null} this player's identity once it matches the memory's */
    this.accepted = null;
  }

  /** The depth a search of `ms` would complete here (see {@link expectedDepth}). */
  expectedDepth(ms) {
    return expectedDepth(ms, this.depths);
  }

  /** Records a completed full-strength search's depth. */
  noteDepth(ms, depth) {
    noteDepth(ms, depth, this.depths);
  }

  /** Whether requests wait after a failure. */
  resting() {
    return this.now() < this.restUntil;
  }

  /**
   * The memory failed: say so once and rest before trying again.
   * @param {string} reason
   */
  fail(reason) {
    this.failedAt = this.now();
    this.restUntil = this.failedAt + REST_MS;
    if (this.offline) return;
    this.offline = true;
    this.reason = reason;
    this.onstatus?.({ offline: true, reason });
  }

  /**
   * The memory answered a request sent at `sent` properly. A request sent before the last failure (a submission in
   * flight when the memory stopped) says nothing of now, so it leaves the memory offline.
   * @param {number} sent
   */
  answered(sent) {
    if (!this.offline || sent < this.failedAt) return;
    this.offline = false;
    this.slow = false;
    this.late = ON_TIME;
    this.reason = "";
    this.onstatus?.({ offline: false });
  }

  /**
   * A lookup was answered properly after `ms`, in its time or not (`late`): {@link SLOW_AFTER} late ones in a row say
   * the memory slow, one in time says it is back.
   * @param {boolean} late
   * @param {number} ms
   */
  paced(late, ms) {
    if (this.offline) return;
    if (!late) {
      this.late = ON_TIME;
      if (!this.slow) return;
      this.slow = false;
      this.reason = "";
      this.onstatus?.({ offline: false });
      return;
    }
    this.late = { count: this.late.count + 1, worstMs: Math.max(this.late.worstMs, ms) };
    if (this.slow || this.late.count < SLOW_AFTER) return;
    this.slow = true;
    const took = (this.late.worstMs / 1000).toFixed(1);
    this.reason = `its last ${this.late.count} answers took up to ${took} s, past the ${this.timeoutMs} ms a lookup may wait`;
    this.onstatus?.({ offline: false, slow: true, reason: this.reason });
  }

  /**
   * This player's engine identity once the memory is known to serve the same engine; rejects with why not.
   * @returns {Promise<string>}
   */
  identity() {
    this.accepted ??= (async () => {
      const mine = await this.engine();
      let theirs = served.get(this.url);
      if (!theirs) {
        theirs = this.request("v1/stats", {}, STATS_TIMEOUT_MS).then(async (response) => {
          if (!response.ok) throw new MemoryError(`its stats answered HTTP ${response.status}`);
          const stats = await readJson(response);
          if (typeof stats?.engine !== "string") throw new MemoryError("its stats name no engine");
          return stats.engine;
        });
        served.set(this.url, theirs);
        theirs.catch(() => served.get(this.url) === theirs && served.delete(this.url));
      }
      const engine = await theirs;
      if (engine !== mine) throw new MemoryError(`it serves ${engine}, not this player's ${mine}`);
      return mine;
    })().catch((err) => {
      // Asked again after the rest.
      this.accepted = null;
      this.fail(String(err?.message ?? err));
      throw err;
    });
    return this.accepted;
  }

  /**
   * The stored entry for `fen` searched at least `depth` deep, checked for shape (the caller checks the move is
   * legal); null on a miss, while resting, on a failure, or when the answer does not come within the lookup's time
   * (the engine then searches; the memory is said offline only when the request fails, see {@link ask}).
   * @param {string} fen
   * @param {number} depth
   * @returns {Promise<MemoryEntry | null>}
   */
  async lookup(fen, depth) {
    if (this.resting()) return null;
    const started = this.now();
    // The identity is asked for once; a first lookup that cannot wait for it simply searches.
    const known = await Promise.race([this.identity().then(() => true, () => false), delay(this.timeoutMs, false)]);
    if (!known) return null;
    const left = Math.max(50, this.timeoutMs - (this.now() - started));
    let late = false;
    const asked = this.ask(fen, depth, () => this.paced(late, this.now() - started));
    const entry = await Promise.race([asked, delay(left, TOO_LATE)]);
    if (entry !== TOO_LATE) return entry;
    late = true;
    return null;
  }

  /**
   * A slow memory's lookup, made while the engine searches: the entry (or null) whenever it comes, within the
   * request's own answer time. An answer within the lookup's time says the memory is back, a later one counts as late.
   * @param {string} fen
   * @param {number} depth
   * @returns {Promise<MemoryEntry | null>}
   */
  async lookupLate(fen, depth) {
    if (this.resting()) return null;
    const started = this.now();
    try {
      await this.identity();
    } catch {
      return null;
    }
    return this.ask(fen, depth, () => {
      const ms = this.now() - started;
      this.paced(ms > this.timeoutMs, ms);
    });
  }

  /**
   * A lookup's request to its end, however late: the entry, or null on a miss; a failure, a bad answer or none
   * within {@link ANSWER_TIMEOUT_MS} says the memory offline, and a proper answer says it is back.
   * @param {string} fen
   * @param {number} depth
   * @param {() => void} [onAnswer] called when it was answered properly (a miss or an entry)
   * @returns {Promise<MemoryEntry | null>}
   */
  async ask(fen, depth, onAnswer) {
    let response;
    const sent = this.now();
    try {
      response = await this.request(`v1/memory?fen=${encodeURIComponent(fen)}&depth=${depth}`, {}, this.answerMs);
    } catch (err) {
      this.fail(err.message);
      return null;
    }
    if (response.status === 404) return this.answered(sent), onAnswer?.(), null;
    if (!response.ok) return this.fail(`it answered HTTP ${response.status} to a lookup`), null;
    let entry;
    try {
      entry = checkEntry(await readJson(response), fen, depth);
    } catch (err) {
      this.fail(err.message);
      return null;
    }
    this.answered(sent);
    onAnswer?.();
    return entry;
  }

  /**
   * Submits a search's result in the background; resolves to the HTTP status (null when nothing was sent).
   * A refusal (4xx: the spot-check disagreed, a rate limit) is the memory working; 5xx or no answer is a failure.
   * Past the service's rate limit nothing is sent (see {@link SubmitBudget}).
   * @param {{fen: string, depth: number, move: string, score: object, pv: string[], nodes: number}} found
   * @returns {Promise<number | null>}
   */
  async submit({ fen, depth, move, score, pv, nodes }) {
    if (this.resting() || !this.budget.take(this.now())) return null;
    let engine;
    try {
      engine = await this.identity();
    } catch {
      return null;
    }
    const body = { fen, depth, move, score, pv: pv.slice(0, MAX_PV), nodes, engine, client: clientToken(this.storage) };
    const sent = this.now();
    try {
      const response = await this.request("v1/memory", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, this.answerMs);
      if (response.status >= 500) this.fail(`it answered HTTP ${response.status} to a submission`);
      else this.answered(sent);
      if (response.status === 429) this.budget.pause(this.now());
      response.body?.cancel?.().catch(() => {});
      return response.status;
    } catch (err) {
      this.fail(err.message);
      return null;
    }
  }

  /**
   * A request to the memory that gives up after `ms`; rejects with a MemoryError that says what went wrong.
   * @param {string} path
   * @param {RequestInit} init
   * @param {number} ms
   */
  async request(path, init, ms) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ms);
    try {
      return await this.fetch(this.url + path, { ...init, signal: abort.signal, credentials: "omit", cache: "no-store" });
    } catch (err) {
      throw new MemoryError(abort.signal.aborted ? `no answer within ${ms} ms` : `it cannot be reached (${err?.message ?? err})`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A stored entry as the service sends it.
 * @typedef {{move: string, san: string, depth: number, score: {cp: number} | {mate: number}, pv: string[], nodes: number, confirmations: number}} MemoryEntry
 */

/**
 * Checks a lookup's answer: the position asked for, a verified entry at least `depth` deep, fields of the right
 * kinds. Throws a MemoryError saying what is wrong.
 * @param {any} json
 * @param {string} fen
 * @param {number} depth
 * @returns {MemoryEntry}
 */
export function checkEntry(json, fen, depth) {
  const bad = (what) => new MemoryError(`it answered a malformed entry (${what})`);
  if (json === null || typeof json !== "object") throw bad("not an object");
  const { move, depth: d, score, pv, nodes, confirmations } = json;
  if (typeof json.fen !== "string" || json.fen.split(" ").slice(0, 4).join(" ") !== fen.split(" ").slice(0, 4).join(" ")) throw bad("another position");
  if (typeof move !== "string" || !/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(move)) throw bad("move");
  if (!Number.isInteger(d) || d < depth || d > 99) throw bad("depth");
  if (json.verified !== true) throw bad("not verified");
  const scoreOk = score && typeof score === "object" && (Number.isInteger(score.cp) || Number.isInteger(score.mate));
  if (!scoreOk) throw bad("score");
  if (!Array.isArray(pv) || !pv.every((m) => typeof m === "string")) throw bad("pv");
  if (!Number.isFinite(nodes) || !Number.isInteger(confirmations) || confirmations < 1) throw bad("counts");
  return { move, san: String(json.san ?? ""), depth: d, score: "cp" in score && Number.isInteger(score.cp) ? { cp: score.cp } : { mate: score.mate }, pv, nodes, confirmations };
}

/** A response's JSON, or a MemoryError. */
async function readJson(response) {
  try {
    return await response.json();
  } catch {
    throw new MemoryError("it answered something that is not JSON");
  }
}

/** No lookup answered late since the last one in time. */
const ON_TIME = Object.freeze({ count: 0, worstMs: 0 });
/** What a lookup's timer resolves to: the answer did not come in time. */
const TOO_LATE = Symbol("too late");

/** Resolves to `value` after `ms`. */
function delay(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

/** localStorage, or undefined where reading it throws (sandboxed frames, some private modes). */
function safeLocalStorage() {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}
