#!/usr/bin/env python3
"""A scripted user agent for the test authorization server: signs in and approves (or denies)
through the server's real HTML pages, like a person in a browser would. Standard library only.

As $BROWSER (the opener TokenKit runs with its one-time loopback start URL, which redirects
to the authorization URL; an authorization URL given directly works too):
    browser.py URL
        sign in as $TOKENKIT_OAUTH_USER (password from $TOKENKIT_OAUTH_PASSWORD_FILE), then act
        on the consent page as $TOKENKIT_OAUTH_BROWSER_ACTION says:
          approve (default)  authorize, then follow the redirect to the app's loopback callback
          deny               press Cancel, then follow the redirect (error=access_denied)
          close              stop on the consent page: the user closed the browser
          capture            authorize but do not follow; only write the callback URL to
                             $TOKENKIT_OAUTH_BROWSER_CALLBACK_FILE (tests tamper with it)
        If $TOKENKIT_OAUTH_BROWSER_CALLBACK_FILE is set, the callback URL is written there too.
Device grant (RFC 8628 verification page):
    browser.py --device USER_CODE [--deny]

Exit 0 when the pages behaved as expected; 1 with one line on stderr otherwise.
"""
import html.parser
import http.cookiejar
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = 20


class FormParser(html.parser.HTMLParser):
    """Collects every <form>: its action and its named <input>s (hidden and text)."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or "", "id": a.get("id"), "fields": {}})
        elif tag == "input" and self.forms and a.get("name") and a.get("type") != "submit":
            self.forms[-1]["fields"][a["name"]] = a.get("value") or ""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Agent:
    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, url, data=None):
        """One request; returns (status, location, body). Redirects are not followed."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(url, data=body)
        if data is not None:
            req.add_header("Referer", url)
        try:
            with self.opener.open(req, timeout=TIMEOUT) as r:
                return r.status, r.headers.get("Location"), r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Location"), e.read().decode("utf-8", "replace")

    def follow(self, url, data=None, stop=lambda u: False):
        """Requests url and follows redirects on the server until `stop(url)` is true for the
        next location. Returns (final_url, status, body)."""
        for _ in range(10):
            status, location, body = self.request(url, data)
            data = None
            if status in (301, 302, 303, 307) and location:
                nxt = urllib.parse.urljoin(url, location)
                if stop(nxt):
                    return nxt, status, body
                url = nxt
                continue
            return url, status, body
        fail("too many redirects")

    def csrf(self, url):
        for c in self.jar:
            if c.name == "csrftoken":
                return c.value
        fail(f"no CSRF cookie after {urllib.parse.urlsplit(url).path}")


def fail(message):
    print(f"browser: {message}", file=sys.stderr)
    sys.exit(1)


def forms_of(body):
    p = FormParser()
    p.feed(body)
    return p.forms


def sign_in(agent, url, server_root):
    """Follows url; when it lands on the login page, signs in and returns the page after it."""
    user = os.environ.get("TOKENKIT_OAUTH_USER", "alice")
    pw_file = os.environ.get("TOKENKIT_OAUTH_PASSWORD_FILE")
    if not pw_file:
        fail("TOKENKIT_OAUTH_PASSWORD_FILE is not set")
    with open(pw_file) as f:
        password = f.read().strip()
    page_url, status, body = agent.follow(url, stop=lambda u: not u.startswith(server_root))
    if not page_url.startswith(server_root):
        return page_url, status, body
    if "/accounts/login/" in page_url:
        forms = forms_of(body)
        if not forms:
            fail("login page has no form")
        fields = dict(forms[0]["fields"])
        fields.update(username=user, password=password)
        page_url, status, body = agent.follow(
            urllib.parse.urljoin(page_url, forms[0]["action"]), fields,
            stop=lambda u: not u.startswith(server_root),
        )
        if "/accounts/login/" in page_url and status == 200:
            fail("sign-in was refused")
    return page_url, status, body


def authorize(url, action):
    parts = urllib.parse.urlsplit(url)
    if parts.hostname == "127.0.0.1" and parts.path.startswith("/start/"):
        # TokenKit hands the browser its one-time loopback start URL, which redirects once to
        # the authorization URL (so the URL's state and PKCE challenge are in no argv).
        status, location, _ = Agent().request(url)
        if status not in (301, 302, 303, 307) or not location:
            fail(f"the start URL answered HTTP {status}")
        url = location
        parts = urllib.parse.urlsplit(url)
    server_root = f"{parts.scheme}://{parts.netloc}/"
    agent = Agent()
    page_url, status, body = sign_in(agent, url, server_root)
    if not page_url.startswith(server_root):
        callback = page_url  # skip_authorization or an immediate error redirect
    else:
        if status != 200:
            fail(f"authorization page answered HTTP {status}")
        forms = [f for f in forms_of(body) if f["id"] == "authorizationForm"]
        if not forms:
            fail("no consent form on the authorization page (the server refused the request)")
        if action == "close":
            return 0
        fields = dict(forms[0]["fields"])
        if action in ("approve", "capture"):
            fields["allow"] = "Authorize"
        callback, status, body = agent.follow(
            urllib.parse.urljoin(page_url, forms[0]["action"]) if forms[0]["action"] else page_url,
            fields, stop=lambda u: not u.startswith(server_root),
        )
        if callback.startswith(server_root):
            fail(f"consent did not redirect to the app (HTTP {status})")
    out = os.environ.get("TOKENKIT_OAUTH_BROWSER_CALLBACK_FILE")
    if out:
        with open(out, "w") as f:
            f.write(callback)
    if action == "capture":
        return 0
    # The app's loopback listener: a plain GET, as a browser would do.
    try:
        with urllib.request.urlopen(callback, timeout=TIMEOUT) as r:
            r.read()
    except urllib.error.HTTPError as e:
        e.read()  # the app's failure page is still a page
    except OSError as e:
        fail(f"the app's callback did not answer: {e}")
    return 0


def device(user_code, deny):
    issuer = os.environ.get("TOKENKIT_OAUTH_ISSUER")
    if not issuer:
        fail("TOKENKIT_OAUTH_ISSUER is not set")
    server_root = issuer.rstrip("/") + "/"
    agent = Agent()
    page_url, status, body = sign_in(agent, server_root + "device/", server_root)
    forms = forms_of(body)
    if status != 200 or not forms:
        fail(f"device page answered HTTP {status}")
    fields = dict(forms[0]["fields"])
    fields["user_code"] = user_code
    page_url, status, body = agent.follow(page_url, fields)
    if "/device-confirm/" not in page_url:
        fail("the server did not accept the user code")
    fields = dict(forms_of(body)[0]["fields"])
    fields["action"] = "deny" if deny else "accept"
    page_url, status, body = agent.follow(page_url, fields)
    if status != 200 or "/device-grant-status/" not in page_url:
        fail(f"device confirmation answered HTTP {status}")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "--device":
        return device(argv[1], "--deny" in argv[2:])
    if len(argv) != 1:
        fail("usage: browser.py URL | browser.py --device USER_CODE [--deny]")
    action = os.environ.get("TOKENKIT_OAUTH_BROWSER_ACTION", "approve")
    if action not in ("approve", "deny", "close", "capture"):
        fail(f"unknown TOKENKIT_OAUTH_BROWSER_ACTION {action!r}")
    return authorize(argv[0], action)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
