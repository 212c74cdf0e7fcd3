// Every page: install the site's service worker (the shell's cache, the
// offline page, pushes). Its code lives at /sw.js, root scope.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => {
    console.warn("service worker not installed", err);
  });
}
