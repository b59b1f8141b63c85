const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A plain page in the code host's look; `account` is the header's user menu (see layout.ts). */
export function page(title: string, body: string, account = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Tandem code host</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style></head>
<body><header><a href="/" class="brand"><strong>Tandem code host</strong></a> <span class="muted tagline">— a local, GitHub-compatible stand-in</span>${account}</header>
<main>
<h1>${esc(title)}</h1>
${body}
</main>
</body></html>`;
}

// Colours keep at least 4.5:1 against their backgrounds; wide content scrolls inside itself.
const STYLE = `
body{font-family:system-ui,sans-serif;max-width:1012px;margin:0 auto;padding:16px;color:#1f2328;line-height:1.5}
header{border-bottom:1px solid #d0d7de;margin-bottom:16px;padding-bottom:8px;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
header .account{margin-left:auto;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
h1{font-size:1.6rem;overflow-wrap:anywhere}
a{color:#0969da} pre{background:#f6f8fa;padding:12px;overflow:auto;font-size:13px}
code{font-size:85%;overflow-wrap:anywhere}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid #1a7f37;background:#1a7f37;color:#fff;cursor:pointer}
button.secondary{background:#f6f8fa;color:#1f2328;border-color:#8c959f}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e}
button:focus-visible,a:focus-visible,summary:focus-visible,textarea:focus-visible,input:focus-visible{outline:2px solid #0969da;outline-offset:2px}
form.inline{display:inline}
input,textarea,select{font:inherit;width:100%;box-sizing:border-box;padding:6px;margin:4px 0 12px}
input[type=checkbox]{width:auto;margin:0 4px 0 0}
.muted{color:#59636e} li{margin:4px 0}
.add{color:#1a7f37} .del{color:#b3261e}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse} th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left}
table.code td{border:0;padding:0 8px;font-family:ui-monospace,monospace;font-size:13px;white-space:pre;vertical-align:top}
table.code td.num{color:#59636e;text-align:right;user-select:none}
table.code tr.add td{background:#dafbe1;color:#1f2328} table.code tr.del td{background:#ffebe9;color:#1f2328}
table.code tr.hunk td{background:#ddf4ff;color:#1f2328}
nav.crumbs ol,nav.tabs ul{list-style:none;padding:0;margin:0 0 12px;display:flex;flex-wrap:wrap;gap:4px 12px}
nav.crumbs li+li::before{content:"/ ";color:#59636e}
ul.files{list-style:none;padding:0;border:1px solid #d0d7de;border-radius:6px}
ul.files li{margin:0;padding:6px 12px;border-top:1px solid #d0d7de} ul.files li:first-child{border-top:0}
.notice{border:1px solid #b3261e;background:#ffebe9;padding:8px 12px;border-radius:6px}
.box{border:1px solid #d0d7de;border-radius:6px;padding:8px 16px;margin:12px 0}
.markdown img{max-width:100%} .markdown table{display:block;overflow-x:auto}
.markdown li.task-list-item{list-style:none}
details.branches summary{cursor:pointer}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;

export function hidden(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
}

/** "Sign in as {login}" buttons, one form each, posting to `action` with the extra fields. */
export function userPicker(
  users: { login: string; name: string }[],
  action: string,
  fields: Record<string, string | undefined>,
): string {
  return `<ul>${users
    .map(
      (u) =>
        `<li><form method="post" action="${esc(action)}">${hidden({ ...fields, login: u.login })}<button type="submit">Sign in as ${esc(u.login)}</button> <span class="muted">${esc(u.name)}</span></form></li>`,
    )
    .join('')}</ul>`;
}
