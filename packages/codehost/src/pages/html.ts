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

/** A plain page in the code host's look: enough to follow the product's links somewhere real. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Tandem code host</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:16px 24px;color:#1f2328}
header{border-bottom:1px solid #d0d7de;margin-bottom:16px;padding-bottom:8px}
a{color:#0969da} pre{background:#f6f8fa;padding:12px;overflow:auto;font-size:13px}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
input,textarea{font:inherit;width:100%;box-sizing:border-box;padding:6px;margin:4px 0 12px}
.muted{color:#59636e} li{margin:4px 0} .add{color:#1a7f37} .del{color:#cf222e}
</style></head>
<body><header><a href="/"><strong>Tandem code host</strong></a> <span class="muted">— a local, GitHub-compatible stand-in</span></header>
<h1>${esc(title)}</h1>
${body}
</body></html>`;
}

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
