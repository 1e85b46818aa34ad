{% autoescape off %}/* The console's service worker (tournament/console/service_worker.py): the referee's phone reloads the console
   without network. Release {{ release }}. */
"use strict";
const CACHE = "console-{{ release }}";
const FILES = {{ files }};
const STATIC = {{ static }};
const KEPT = new Set(FILES.map((f) => new URL(f, self.location.origin).pathname));
const CONSOLE_PAGE = /^\/games\/\d+\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

// the old releases' caches dropped; the console pages open now kept at once (the page that registered the
// worker was loaded before it: without this, a reload without network would find nothing)
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("console-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
      .then(() => self.clients.matchAll({ type: "window" }))
      .then((open) => caches.open(CACHE).then((cache) => Promise.all(open
        .filter((c) => CONSOLE_PAGE.test(new URL(c.url).pathname))
        .map((c) => cache.add(c.url).catch(() => null)))))
  );
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) { cache.put(request, answer.clone()); }
    return answer;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) { return kept; }
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) { return kept; }
  const answer = await fetch(request);
  if (answer.ok) { cache.put(request, answer.clone()); }
  return answer;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" && CONSOLE_PAGE.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith(STATIC)) {  // (Pyodide's folder names its version)
    event.respondWith(cacheFirst(request));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
{% endautoescape %}
