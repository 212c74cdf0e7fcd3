// The service worker's code (a classic script: /sw.js sets self.SW_CONFIG and
// imports this by its hashed URL; see frontend/pwa.py).
//
// - The shell (styles, icons, modules: hashed names, so never stale) is cached
//   at install and served cache-first; other static files are cached as pages
//   load them.
// - Pages are network-first: when the network is gone the offline page is
//   shown. Pages themselves are not cached (they are personal).
// - Only static files are cached: the API, the sockets and every page never
//   touch the cache.
// - A push shows a notification; a click opens (or focuses) its game.

const { version, shell, offline } = self.SW_CONFIG;
const CACHE = `shell-${version}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(shell))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Any page, from the network; nothing cached but the offline page.
    event.respondWith(fetch(request).catch(() => offlinePage()));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  }
  // Everything else (the API, the sockets, /jsi18n/, the manifest) is the
  // browser's own business: never answered from a cache.
});

async function offlinePage() {
  return (await caches.match(offline)) || new Response("offline", { status: 503 });
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener("push", (event) => {
  event.waitUntil(showPush(event.data));
});

async function showPush(data) {
  let message;
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data.text() };
  }
  const url = sameSitePath(message.url);
  await self.registration.showNotification(message.title || "Brettspiele", {
    body: message.body || "",
    tag: message.tag || url,
    data: { url, kind: message.kind, id: message.id },
    icon: shell.find((u) => u.includes("icon-192")),
    badge: shell.find((u) => u.includes("icon-192")),
  });
}

// Only a path on this site: a push never sends the reader elsewhere.
function sameSitePath(raw) {
  try {
    const url = new URL(raw || "/", self.location.origin);
    return url.origin === self.location.origin ? url.pathname + url.search : "/";
  } catch {
    return "/";
  }
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(sameSitePath(event.notification.data && event.notification.data.url)));
});

// Focus a window already on that page; else take one of the site's windows
// there; else open a new one.
async function openPage(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = windows.find((w) => w.url === target);
  if (same) return same.focus();
  const other = windows.find((w) => "navigate" in w);
  if (other) {
    const moved = await other.navigate(target).catch(() => null);
    if (moved) return moved.focus().catch(() => moved);
  }
  return self.clients.openWindow(target);
}
