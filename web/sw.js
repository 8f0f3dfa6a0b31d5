// The service worker: after one visit the app opens and plays with the network off. It keeps one
// cache per version of the client, holding the whole app shell (the page, its scripts and
// styles, the WebAssembly with its models, the icons), and answers from it.
//
// A new version replaces the old one cleanly: the server (or `oh7 web`) writes this file with
// the version's hash and file list, so any change to any file is a new service worker; it
// caches the whole new set beside the old one, and takes over only when the page asks (the page
// offers "reload for the new version") or once no page of the old version is open. A page is
// always served by one version, never half old, half new; the old cache goes when the new
// version takes over.

const VERSION = "__OH7_VERSION__";
const FILES = ["__OH7_FILES__"];
const CACHE = `oh7-${VERSION}`;
// The pages of the app (the same document): served from the cache at any of its paths.
const PAGES = /^(|index\.html|t\/[^/]+|w\/[^/]+|review\/[^/]+|replay\/[^/]+|p\/[^/]+)$/;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("oh7-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (e) => {
  if (e.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const rel = url.pathname.slice(scope.pathname.length);
  // The server's API, its WebSocket and anything not of the app go to the network as they are.
  const page = req.mode === "navigate" && PAGES.test(rel);
  const key = page ? "./" : `./${rel}`;
  if (!page && !FILES.includes(key)) return;
  e.respondWith(
    caches.open(CACHE).then(async (c) => {
      const hit = await c.match(new URL(key, scope).href);
      return hit || fetch(req);
    }),
  );
});
