// What the pages give their modules besides the modules themselves (for tsc --checkJs).

interface Window {
  /** Django's JavaScript catalog (base.html loads it before any module). */
  gettext?: (text: string) => string;
  interpolate?: (format: string, params: Record<string, unknown>, named: boolean) => string;
  /** The game page's model and socket, for debugging and the browser tests. */
  __game?: { model: object; socket: object };
  __embed?: { socket: object; version: () => number };
  __tv?: { game: () => number | null };
}
