import { API_KEY_PREFIX } from '../../../domain/apikeys/api-key.js';
import type { ApiKeyDoc } from '../../../projections/api-keys.projection.js';
import { html, type SafeHtml } from '../html.js';
import type { DashboardUser } from '../session-auth.js';
import { accountTabs, layout, shortDate } from './layout.js';

/** Account → API: generate a key (shown once), list keys by prefix, revoke. */
export function apiKeysPage(user: DashboardUser, keys: readonly ApiKeyDoc[]): SafeHtml {
  const active = keys.filter((k) => !k.revokedAt).length;
  return layout({
    title: 'API keys',
    user,
    section: 'api',
    body: html`${accountTabs('api')}
<p class="lead">Keys authenticate calls to the V2 API: <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Only a hash and the
first four characters are stored, so a new key is shown once: copy it before you leave the page. A new key does not
replace the old ones; revoke a key you no longer use, and it stops working at once.</p>

<form data-api="/api/keys" data-method="POST" data-reveal="#new-key" data-reveal-field="api_key" data-refresh="#keys"
  data-success="New key generated. Copy it now: it will not be shown again.">
<div class="actions"><button type="submit">Generate a new key</button></div>
<p class="status" data-status role="status" aria-live="polite"></p>
</form>

<section id="new-key" class="reveal" hidden aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new API key</h2>
<p>This is the only time the full key is shown. Store it in your secret manager.</p>
<div class="secret">
<label class="sr-only" for="new-key-value">New API key</label>
<input id="new-key-value" type="text" readonly data-secret spellcheck="false" autocomplete="off">
<button type="button" class="secondary" data-copy="#new-key-value">Copy</button>
<span data-copy-status role="status" aria-live="polite"></span>
</div>
</section>

<section id="keys" aria-labelledby="keys-title">
<h2 id="keys-title">Your keys <span class="hint">${active} active, ${keys.length - active} revoked</span></h2>
${keys.length === 0 ? html`<p>No keys yet.</p>` : keyTable(keys)}
</section>`,
  });
}

function keyTable(keys: readonly ApiKeyDoc[]): SafeHtml {
  // Newest first: the key just generated is at the top.
  const rows = [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return html`<div class="table-wrap"><table>
<caption class="sr-only">API keys by prefix, with created and last-used dates</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows.map(
    (key) => html`<tr data-key-prefix="${key.prefix}">
<td><code>${API_KEY_PREFIX}${key.prefix}…</code></td>
<td>${shortDate(key.createdAt)}</td>
<td>${shortDate(key.lastUsedAt)}</td>
<td>${key.revokedAt ? html`<span class="badge off">Revoked ${key.revokedAt.slice(0, 10)}</span>` : html`<span class="badge ok">Active</span>`}</td>
<td>${
      key.revokedAt
        ? ''
        : html`<form data-api="/api/keys/${key.keyId}" data-method="DELETE" data-refresh="#keys"
  data-confirm="Revoke the key ${API_KEY_PREFIX}${key.prefix}…? Calls with it will fail at once.">
<button type="submit" class="danger" aria-label="Revoke key ${API_KEY_PREFIX}${key.prefix}…">Revoke</button>
<span class="status" data-status role="status" aria-live="polite"></span></form>`
    }</td>
</tr>`,
  )}</tbody></table></div>`;
}
