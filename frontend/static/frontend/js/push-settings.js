// The settings page's push section: turn web push on or off for this device.
// On: ask for the permission, subscribe with the site's VAPID key and hand the
// subscription to the server (POST /api/push/subscriptions/); off: the reverse.
import { $ } from "./dom.js";
import { ApiError, csrfToken, gettext, toast } from "./socket.js";

const section = $("push-settings");
const state = $("push-state");

/** @param {string} name @param {string} text */
function show(name, text) {
  state.dataset.state = name;
  state.textContent = text;
  $("push-on").hidden = name !== "off";
  $("push-off").hidden = name !== "on";
}

/** @param {string} text base64url */
function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** @param {"POST" | "DELETE"} method @param {unknown} body */
async function send(method, body) {
  const res = await fetch("/api/push/subscriptions/", {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    const data = await res.json().catch(() => ({}));
    throw new ApiError(data.message || res.statusText, data);
  }
}

async function refresh() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    show("unsupported", gettext("This browser cannot receive push notifications."));
    return;
  }
  if (Notification.permission === "denied") {
    show("denied", gettext("This browser blocks notifications from this site."));
    return;
  }
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    show("off", gettext("Push notifications are off for this device."));
    return;
  }
  show("on", gettext("Push notifications are on for this device."));
  // The server may have lost it (the push service forgot it once; another
  // account used this browser since): telling it again is harmless.
  send("POST", subscription.toJSON()).catch(() => {});
}

async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") return refresh();
  show("working", gettext("Turning on…"));
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(section.dataset.publicKey),
  });
  await send("POST", subscription.toJSON());
}

async function turnOff() {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  show("working", gettext("Turning off…"));
  await send("DELETE", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

/**
 * What to tell a person whose switch failed. The server's refusals come
 * translated; the browser's own (a DOMException such as "Registration failed -
 * permission denied") are in English and say nothing to do: replaced.
 * @param {any} err
 */
function failure(err) {
  if (err instanceof ApiError && err.message) return err.message;
  if (err?.name === "NotAllowedError") {
    return gettext("This browser does not allow notifications from this site. Allow them in the browser's site settings, then try again.");
  }
  return gettext("This browser could not switch push notifications. Try again later, or in another browser.");
}

/** @param {() => Promise<unknown>} action */
function guarded(action) {
  return () =>
    action()
      .catch((err) => toast(failure(err), "error", 10000))
      .finally(refresh);
}

$("push-on").addEventListener("click", guarded(turnOn));
$("push-off").addEventListener("click", guarded(turnOff));
refresh();
