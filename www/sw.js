// The standalone page's service worker (registered by main.js only, never by an embedded player): it keeps the
// whole site of one build in a cache named after the build's id (pkg/build.json), so the page and its engine work
// offline after one visit. The checkers page's files (`onVisit`) are not downloaded with it: the first request for
// one of them (a visit to the checkers page) keeps them all, so that page and its engine work offline after one
// visit too, even where the visit never started the engine. Online, every request goes to the network first (a response for one of the build's files
// refreshes its copy), so a deployed build is what people get; offline, the cache answers. A new build id (the page registers sw.js?build=ID) caches
// the new build and deletes the older ones.

const BUILD = new URL(self.location.href).searchParams.get("build") ?? "unversioned";
const CACHE = `homeostat-${BUILD}`;
const PREFIX = "homeostat-";
/** Where the cache keeps the build's list of files kept on visit (no file of the site has this name). */
const ON_VISIT_KEY = "homeostat-on-visit.json";
/** The files kept on visit being fetched, so that the page's many requests fetch them once. */
let keeping = null;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch("pkg/build.json", { cache: "no-store" });
      if (!response.ok) throw new Error(`pkg/build.json: HTTP ${response.status}`);
      const { files, onVisit = [] } = await response.json();
      const cache = await caches.open(CACHE);
      await cache.put(ON_VISIT_KEY, new Response(JSON.stringify(onVisit), { headers: { "Content-Type": "application/json" } }));
      // Straight from the server, not from the HTTP cache, so the cache holds one build.
      await cache.addAll(files.map((file) => new Request(file, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      try {
        const response = await fetch(request);
        // The page gets its response at once; keeping the copy fresh (a write to the cache) goes on after it, as
        // waiting for that write made every file of a repeat visit arrive later.
        if (response.ok && response.type === "basic") event.waitUntil(refresh(request, response.clone()));
        return response;
      } catch (err) {
        // Offline: the cached copy (a page address with a query or fragment is the same page).
        const cache = await caches.open(CACHE);
        const cached = (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
        if (cached) return cached;
        throw err;
      }
    })(),
  );
});

/**
 * Replaces the cached copy of `request` with `response` where the cache holds one: only the build's own files are
 * kept fresh (not API answers or anything else the site serves). A file kept on visit that is not cached yet is
 * handed to keepOnVisit.
 * @param {Request} request
 * @param {Response} response
 */
async function refresh(request, response) {
  const cache = await caches.open(CACHE);
  if (await cache.match(request)) await cache.put(request, response);
  else await keepOnVisit(cache, request);
}

/**
 * When `request` is for one of the build's files kept on visit (the checkers page's), fetches and keeps those of
 * them the cache lacks.
 * @param {Cache} cache
 * @param {Request} request
 */
async function keepOnVisit(cache, request) {
  const list = await cache.match(ON_VISIT_KEY);
  if (!list) return;
  const files = await list.json();
  const url = new URL(request.url);
  const file = url.href.slice(0, url.href.length - url.search.length - url.hash.length).slice(self.registration.scope.length);
  if (!files.includes(file)) return;
  keeping ??= (async () => {
    const missing = [];
    for (const name of files) if (!(await cache.match(name))) missing.push(name);
    await cache.addAll(missing.map((name) => new Request(name, { cache: "reload" })));
  })().finally(() => (keeping = null));
  await keeping;
}
