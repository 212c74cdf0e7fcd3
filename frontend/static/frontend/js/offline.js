// The offline page's one action, as a module: the Content-Security-Policy runs
// no inline handlers (onclick).
document.querySelector('[data-testid="reload"]')?.addEventListener("click", () => location.reload());
