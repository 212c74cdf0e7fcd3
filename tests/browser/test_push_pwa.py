"""The installable web app in Chromium: the service worker registers at the
root scope, a push delivered to it through the DevTools protocol
(``ServiceWorker.deliverPushMessage``: headless Chromium cannot reach a
browser vendor's push service) shows the notification, and a click on it
opens the game; Chromium finds the site installable
(``Page.getInstallabilityErrors``); offline, a page shows the offline page.

A headless browser has no notification to click: the test dispatches a
``notificationclick`` event, carrying the very notification the push showed
(``registration.getNotifications()``), to the worker's own listener, with
``waitUntil`` captured so the test waits for the listener's work to finish.
Everything after that (finding the site's window, taking it to the game) is
the worker's code as a real click runs it.

Nothing reads the notifications while one is being shown. Chromium's
``getNotifications()`` keeps a stored notification only if the platform
already lists it as displayed or it was created after the read began, and
deletes every other one from its database
(content/browser/notifications/platform_notification_context_impl.cc): a read
that starts after the worker stored a notification but before it is on
display drops it for good (every later read lists nothing). This test used
to poll ``getNotifications()`` while the push was being shown and lost it
about once in ten runs; reads hammering a push lose about half. So the test
first wraps the worker's ``showNotification`` to report when each call has
settled (the worker's own code decides everything), waits for that, and only
then reads. The site itself never reads its notifications.

Run: .venv/bin/pytest tests/browser/test_push_pwa.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import json
import tempfile

import pytest

from tests.conftest import CHROMIUM
from tests.factories import make_user, started_game

from .helpers import CHROMIUM_ARGS, TIMEOUT_MS, BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

CLICK_JS = """async (tag) => {
  const [note] = await self.registration.getNotifications({ tag });
  const click = new NotificationEvent("notificationclick", { notification: note });
  let work = Promise.resolve();
  click.waitUntil = (promise) => { work = promise; };
  self.dispatchEvent(click);
  await work;
  return (await self.registration.getNotifications({ tag })).length;
}"""

NOTIFICATIONS_JS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => ({
    title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon,
  }));
}"""


# In the worker, before the first push: every showNotification call, once
# settled, is recorded (its tag, or its error) and wakes the waiters.
SHOWN_HOOK_JS = """() => {
  if (self.__shown) return;
  const show = self.registration.showNotification.bind(self.registration);
  self.__shown = [];
  self.__shownWaiters = new Set();
  const record = (entry) => {
    self.__shown.push(entry);
    self.__shownWaiters.forEach((wake) => wake());
  };
  self.registration.showNotification = (title, options) =>
    show(title, options).then(
      (value) => { record({ tag: options.tag }); return value; },
      (err) => { record({ error: String(err) }); throw err; },
    );
}"""

# Settles once the worker has shown the notification tagged ``tag`` (its
# showNotification resolved: it is on display), or failed to show one.
SHOWN_WAIT_JS = """([tag, ms]) => new Promise((resolve, reject) => {
  const wake = () => {
    const failed = self.__shown.find((s) => s.error);
    if (failed) reject(new Error(`showNotification failed: ${failed.error}`));
    else if (self.__shown.some((s) => s.tag === tag)) resolve();
    else return;
    self.__shownWaiters.delete(wake);
    clearTimeout(timer);
  };
  const timer = setTimeout(() => {
    self.__shownWaiters.delete(wake);
    reject(new Error(`no notification ${tag} shown in ${ms} ms: ${JSON.stringify(self.__shown)}`));
  }, ms);
  self.__shownWaiters.add(wake);
  wake();
})"""


class PushAndInstallTests(BrowserLiveTestCase):
    def open_controlled(self, user=None, name: str = "player"):
        """A page on the lobby, controlled by the site's worker, with a
        DevTools session that reports the worker's registrations."""
        page = self.new_page(name, user=user)
        page.context.grant_permissions(["notifications"], origin=self.live_server_url)
        cdp = page.context.new_cdp_session(page)
        registrations: dict[str, str] = {}
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.update(
                {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}
            ),
        )
        cdp.send("ServiceWorker.enable")
        page.goto(f"{self.live_server_url}/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.wait_for_function("() => navigator.serviceWorker.controller.state === 'activated'")
        return page, cdp, registrations

    def test_a_push_shows_a_notification_and_its_click_opens_the_game(self):
        user = off_loop(make_user, "pia")
        game = off_loop(started_game, players=[user, off_loop(make_user)])
        page, cdp, registrations = self.open_controlled(user)
        scope = f"{self.live_server_url}/"
        # One more round trip: the protocol events sent before it are handled.
        page.wait_for_function("() => true")
        self.assertIn(scope, registrations)
        self.assertEqual(
            page.evaluate("async () => (await navigator.serviceWorker.ready).scope"), scope
        )
        # Playwright may attach to the worker a moment after it runs (the sync
        # API handles events only inside its calls: no event slips between these).
        workers = page.context.service_workers
        worker = workers[0] if workers else page.context.wait_for_event("serviceworker")
        worker.evaluate(SHOWN_HOOK_JS)

        def push(data: dict) -> None:
            """Deliver ``data`` as a push; return once the worker has shown it."""
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": self.live_server_url,
                    "registrationId": registrations[scope],
                    "data": json.dumps(data),
                },
            )
            worker.evaluate(SHOWN_WAIT_JS, [data["tag"], TIMEOUT_MS])

        message = {
            "title": "Brettspiele",
            "body": f"Your turn in game #{game.pk} (Halma).",
            "url": f"/g/{game.pk}/",
            "kind": "your_turn",
            "id": 1,
            "tag": f"your_turn-{game.pk}",
        }
        push(message)
        [shown] = page.evaluate(NOTIFICATIONS_JS)
        self.assertEqual(shown["title"], "Brettspiele")
        self.assertEqual(shown["body"], message["body"])
        self.assertEqual(shown["tag"], message["tag"])
        self.assertEqual(shown["data"]["url"], f"/g/{game.pk}/")
        self.assertRegex(shown["icon"], r"/static/frontend/icons/icon-192\.[0-9a-f]{12}\.png$")

        # A push naming another site's page opens nothing but this site.
        push({**message, "tag": "evil", "url": "https://evil.example/x"})
        urls = {n["tag"]: n["data"]["url"] for n in page.evaluate(NOTIFICATIONS_JS)}
        self.assertEqual(urls, {message["tag"]: f"/g/{game.pk}/", "evil": "/"})

        self.assertEqual(worker.evaluate(CLICK_JS, message["tag"]), 0)  # the click closed it
        page.wait_for_url(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        self.shot(page, "opened-by-notification")
        self.assertEqual(self.page_errors, [])

    def test_chromium_finds_the_site_installable(self):
        # A profile on disk: Chromium installs nothing from an incognito
        # context (Playwright's new contexts are), so it would answer "in-incognito".
        with tempfile.TemporaryDirectory() as profile:
            ctx = self.playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
            try:
                ctx.set_default_timeout(TIMEOUT_MS)
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.goto(f"{self.live_server_url}/")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                cdp = ctx.new_cdp_session(page)
                answer = cdp.send("Page.getInstallabilityErrors")
                self.assertEqual(answer["installabilityErrors"], [])
                manifest = cdp.send("Page.getAppManifest")
                self.assertEqual(manifest["errors"], [])
                self.assertTrue(manifest["url"].endswith("/manifest.webmanifest"))
            finally:
                ctx.close()

    def test_offline_a_page_shows_the_offline_page(self):
        user = off_loop(make_user, "olaf")
        page, _cdp, _ = self.open_controlled(user)
        page.context.set_offline(True)
        page.goto(f"{self.live_server_url}/my/games/")
        page.wait_for_selector("[data-testid=offline]")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 700})
            self.shot(page, f"offline-{width}")
        # Styles came from the worker's cache: the page is laid out, not bare.
        self.assertNotEqual(
            page.evaluate("() => getComputedStyle(document.querySelector('.card')).borderRadius"),
            "0px",
        )
        # Only the shell and the offline page are ever cached: no API answer, no page.
        cached = page.evaluate(
            """async () => {
              const urls = [];
              for (const name of await caches.keys()) {
                for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
              }
              return urls;
            }"""
        )
        self.assertIn("/offline/", cached)
        self.assertTrue(any(u.startswith("/static/frontend/js/game.") for u in cached))
        self.assertEqual([u for u in cached if not u.startswith("/static/")], ["/offline/"])
        page.context.set_offline(False)
        page.click("text=Try again")
        page.wait_for_url(f"{self.live_server_url}/my/games/")
        page.wait_for_selector("h1")
        self.assertFalse(page.locator("[data-testid=offline]").count())


# Headless Chromium reaches no push service: ``subscribe`` is replaced by one
# that answers the subscription of a device the test made (its own keys).
# It keeps the subscription across the page's reloads, as a browser does.
FAKE_PUSH_MANAGER = """(() => {
  const sub = %s;
  const current = () => sessionStorage.getItem("fake-push") && {
    endpoint: sub.endpoint,
    toJSON: () => sub,
    unsubscribe: async () => { sessionStorage.removeItem("fake-push"); return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    window.__subscribed = {
      userVisibleOnly: options.userVisibleOnly,
      key: Array.from(new Uint8Array(options.applicationServerKey)),
    };
    sessionStorage.setItem("fake-push", "1");
    return current();
  };
  PushManager.prototype.getSubscription = async function () { return current() || null; };
})();"""


class PushSettingsTests(BrowserLiveTestCase):
    def test_turn_push_on_and_off_for_this_device_and_choose_the_kinds(self):
        from games.models import PushSettings, PushSubscription
        from games.services import push_keys
        from tests.games.push_endpoint import Device, unb64url

        user = off_loop(make_user, "sven")
        device = Device().subscription("https://fcm.googleapis.com/fcm/send/sven-laptop")
        page = self.new_page("player", user=user)
        page.context.grant_permissions(["notifications"], origin=self.live_server_url)
        page.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(device))
        page.goto(f"{self.live_server_url}/accounts/settings/")
        page.wait_for_selector("[data-testid=push-state][data-state=off]")
        page.click("[data-testid=push-on]")
        page.wait_for_selector("[data-testid=push-state][data-state=on]")
        sub = off_loop(lambda: PushSubscription.objects.get())
        self.assertEqual((sub.user_id, sub.endpoint), (user.pk, device["endpoint"]))
        self.assertEqual((sub.p256dh, sub.auth), (device["keys"]["p256dh"], device["keys"]["auth"]))
        subscribed = page.evaluate("() => window.__subscribed")
        self.assertTrue(subscribed["userVisibleOnly"])
        public = page.get_attribute("#push-settings", "data-public-key")
        self.assertEqual(bytes(subscribed["key"]), unb64url(public))
        self.assertEqual(len(subscribed["key"]), 65)
        self.assertEqual(public, off_loop(lambda: push_keys.push_keys_get().public_key))

        page.uncheck("[data-testid=push-kind-draw_offer]")
        page.uncheck("[data-testid=push-kind-game_over]")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("#push-settings").scroll_into_view_if_needed()
            self.shot(page, f"push-settings-{width}")
        page.click("[data-testid=push-save]")
        page.wait_for_selector("[data-testid=push-state][data-state=on]")
        muted = off_loop(lambda: PushSettings.objects.get(user=user).muted)
        self.assertEqual(muted, ["draw_offer", "game_over"])
        self.assertFalse(page.is_checked("[data-testid=push-kind-draw_offer]"))
        self.assertTrue(page.is_checked("[data-testid=push-kind-your_turn]"))

        page.click("[data-testid=push-off]")
        page.wait_for_selector("[data-testid=push-state][data-state=off]")
        self.assertFalse(off_loop(lambda: PushSubscription.objects.exists()))
        self.assertEqual(self.page_errors, [])
