// The standalone page's service worker (registered by main.js only, never by an embedded player): it keeps the
// whole site of one build in a cache named after the build's id (pkg/build.json), so the page and its engine work
// offline after one visit. Online, every request goes to the network first (a response for one of the build's files
// refreshes its copy), so a deployed build is what people get; offline, the cache answers. A new build id (the page registers sw.js?build=ID) caches
// the new build and deletes the older ones.

const BUILD = new URL(self.location.href).searchParams.get("build") ?? "unversioned";
const CACHE = `homeostat-${BUILD}`;
const PREFIX = "homeostat-";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch("pkg/build.json", { cache: "no-store" });
      if (!response.ok) throw new Error(`pkg/build.json: HTTP ${response.status}`);
      const { files } = await response.json();
      const cache = await caches.open(CACHE);
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
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        // Only the build's own files are kept fresh (not API answers or anything else the site serves).
        if (response.ok && response.type === "basic" && (await cache.match(request))) await cache.put(request, response.clone());
        return response;
      } catch (err) {
        // Offline: the cached copy (a page address with a query or fragment is the same page).
        const cached = (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
        if (cached) return cached;
        throw err;
      }
    })(),
  );
});
