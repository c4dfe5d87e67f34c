// A tiny static file server for the browser tests, so they need no `make serve`.

import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's `www/` folder, which holds the page under test. */
export const WWW_DIR = fileURLToPath(new URL("../../www/", import.meta.url));

/** The in-page error collector every served HTML page loads first (see page-errors.js). */
const ERRORS_PATH = "/__page-errors.js";
const ERRORS_FILE = fileURLToPath(new URL("./page-errors.js", import.meta.url));
const ERRORS_TAG = `<script src="${ERRORS_PATH}"></script>`;

/** Content types by file extension; `.wasm` must be `application/wasm` for streaming compilation. */
const MIME_TYPES = {
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".ico": "image/x-icon",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".mjs": "text/javascript; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ts": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

/**
 * Maps a request path onto a file below one of the mounted folders, or returns null.
 * @param {Record<string, string>} mounts URL prefix (ending in "/") to folder
 * @param {string} urlPath decoded path of the request
 */
function resolveFile(mounts, urlPath) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    if (!urlPath.startsWith(prefix)) continue;
    const root = path.resolve(mounts[prefix]);
    const file = path.resolve(root, "." + path.posix.normalize("/" + urlPath.slice(prefix.length)));
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    return file;
  }
  return null;
}

/**
 * Starts a static server on a free loopback port.
 * @param {object} [options]
 * @param {Record<string, string>} [options.mounts] URL prefix to folder; defaults to `www/` at "/"
 * @param {Record<string, string>} [options.headers] extra headers sent with every response
 * @param {string[]} [options.missing] paths answered with 404 as if the file were not there (failure tests)
 * @param {Record<string, number>} [options.delays] paths answered only after this many milliseconds (a slow network)
 * @returns {Promise<{origin: string, close: () => Promise<void>, requested: string[], served: string[]}>}
 *   `requested`: the paths asked for, in the order the requests came; `served`: the paths whose answers have been
 *   sent, in order. A page can have read an answer before this process hears it was sent (the browser and the
 *   test's driver race on its event loop), so what a page loaded is read from `requested`, and `served` only says
 *   that a delayed answer has not gone out yet.
 */
export async function startServer({ mounts = { "/": WWW_DIR }, headers = {}, missing = [], delays = {} } = {}) {
  /** @type {string[]} */
  const requested = [];
  /** @type {string[]} */
  const served = [];
  const server = http.createServer(async (req, res) => {
    const rawPath = (req.url ?? "/").split("?")[0];
    requested.push(rawPath);
    res.on("finish", () => served.push(rawPath));
    const delay = delays[rawPath];
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    const send = (status, text) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed\n");
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    } catch {
      return send(400, "bad request\n");
    }
    if (missing.includes(urlPath)) return send(404, "not found\n");
    let file = urlPath === ERRORS_PATH ? ERRORS_FILE : resolveFile(mounts, urlPath);
    if (file === null) return send(404, "not found\n");
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = path.join(file, "index.html");
        info = await stat(file);
      }
      const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
      if (type.startsWith("text/html")) {
        // The error collector goes in before anything else on the page.
        const html = (await readFile(file, "utf8")).replace(/<head[^>]*>/i, (head) => `${head}${ERRORS_TAG}`);
        res.writeHead(200, { "content-type": type, "content-length": Buffer.byteLength(html), "cache-control": "no-store", ...headers });
        return res.end(req.method === "HEAD" ? undefined : html);
      }
      res.writeHead(200, {
        "content-type": type,
        "content-length": info.size,
        "cache-control": "no-store",
        ...headers,
      });
      if (req.method === "HEAD") return res.end();
      createReadStream(file).pipe(res);
    } catch {
      send(404, "not found\n");
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
