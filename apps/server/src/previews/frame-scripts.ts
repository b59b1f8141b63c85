/**
 * The scripts Tandem serves on a preview's own origin (workspace §7 "Preview frame messaging").
 * They are plain ES5 strings, not bundled modules: they run inside whatever page the agent serves,
 * next to code we know nothing about, so they keep to one IIFE and touch no globals.
 */

/** Where these scripts live on every preview origin; the proxy never forwards this prefix. */
export const PREVIEW_INTERNAL_PREFIX = '/__tandem/';

/**
 * The sign-in page a preview origin shows until it has its own cookie. Framed by the workspace, it
 * asks for a token (AUTH_REQUEST), trades the AUTH_TOKEN answer for a cookie and reloads. Opened
 * in a tab of its own (`mode: 'open'`), the token comes in the URL's fragment, which never reaches
 * a server log.
 */
export const BRIDGE_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('tandem-preview-config').textContent);
  var status = document.getElementById('tandem-preview-status');
  function say(text) { status.textContent = text; }
  function signIn(token) {
    return fetch('/__tandem/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: token }),
      credentials: 'same-origin'
    }).then(function (response) { if (!response.ok) throw new Error(String(response.status)); });
  }
  if (config.mode === 'open') {
    var match = /[#&]token=([^&]+)/.exec(location.hash);
    history.replaceState(null, '', location.pathname);
    if (!match) { say('This link has no sign-in token. Open the preview from the agent in Tandem.'); return; }
    signIn(decodeURIComponent(match[1])).then(
      function () { location.replace(config.next || '/'); },
      function () { say('This preview link has expired. Open the preview again from the agent in Tandem.'); }
    );
    return;
  }
  if (window.parent === window) { say('Open this preview from the agent in Tandem.'); return; }
  // A browser that refuses the preview's cookie would otherwise reload this page forever. The
  // count lives in window.name, which survives reloads of this frame: a third-party frame may be
  // denied sessionStorage.
  var PREFIX = 'tandem-preview-attempts:';
  var attempts = window.name.indexOf(PREFIX) === 0 ? Number(window.name.slice(PREFIX.length)) || 0 : 0;
  if (attempts >= 3) {
    window.name = '';
    say('Your browser did not keep the preview\\'s sign-in cookie. Allow cookies for this site, or open the preview in a new tab.');
    return;
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || config.appOrigins.indexOf(event.origin) < 0) return;
    var data = event.data || {};
    if (data.type === 'AUTH_TOKEN' && typeof data.token === 'string') {
      window.name = PREFIX + (attempts + 1);
      signIn(data.token).then(
        function () { location.reload(); },
        function () { say('You do not have access to this preview.'); }
      );
    }
    if (data.type === 'AUTH_ERROR') say('Sign in to Tandem to view this preview.');
  });
  config.appOrigins.forEach(function (origin) {
    window.parent.postMessage({ type: 'AUTH_REQUEST' }, origin);
  });
})();
`;

/**
 * Injected into every HTML page a preview serves: tells the workspace where the frame is (for its
 * address bar), goes back on NAVIGATE_BACK and answers SCREENSHOT_REQUEST with a PNG of what is
 * on screen. The screenshot library is loaded only when a screenshot is asked for.
 */
export function frameScript(appOrigins: readonly string[]): string {
  return `(function () {
  if (window.parent === window) return;
  if (window.name.indexOf('tandem-preview-attempts:') === 0) window.name = '';
  var origins = ${JSON.stringify(appOrigins)};
  function tell(message) {
    origins.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }
  function where() { tell({ type: 'LOCATION', href: location.href }); }
  where();
  window.addEventListener('popstate', where);
  window.addEventListener('hashchange', where);
  var library;
  function loadLibrary() {
    library = library || new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = '/__tandem/html-to-image.js';
      script.onload = function () { resolve(window.htmlToImage); };
      script.onerror = function () { reject(new Error('The screenshot library did not load')); };
      document.head.appendChild(script);
    });
    return library;
  }
  function screenshot() {
    var root = document.documentElement;
    return loadLibrary().then(function (lib) {
      return lib.toPng(document.body, {
        width: root.clientWidth,
        height: root.clientHeight,
        pixelRatio: 1,
        backgroundColor: getComputedStyle(document.body).backgroundColor || '#ffffff',
        style: { transform: 'translate(' + -window.scrollX + 'px, ' + -window.scrollY + 'px)' }
      });
    });
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || origins.indexOf(event.origin) < 0) return;
    var data = event.data || {};
    if (data.type === 'NAVIGATE_BACK') history.back();
    if (data.type === 'SCREENSHOT_REQUEST') {
      screenshot().then(
        function (imageData) { event.source.postMessage({ type: 'SCREENSHOT_RESPONSE', imageData: imageData }, event.origin); },
        function (error) {
          var message = (error && error.message) || 'The page could not be captured';
          event.source.postMessage({ type: 'SCREENSHOT_RESPONSE', error: message }, event.origin);
        }
      );
    }
  });
})();
`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a <script> element: '<' escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;color:#333;margin:0;display:grid;place-items:center;min-height:100vh}main{max-width:32rem;padding:1.5rem;text-align:center}h1{font-size:1.1rem}</style>
</head><body><main>${body}</main></body></html>`;
}

export function bridgePage(config: {
  appOrigins: readonly string[];
  mode: 'frame' | 'open';
  next?: string;
}): string {
  return page(
    'Preview',
    `<p id="tandem-preview-status" role="status">Signing in to the preview…</p>
<script type="application/json" id="tandem-preview-config">${scriptJson(config)}</script>
<script src="/__tandem/bridge.js"></script>`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
