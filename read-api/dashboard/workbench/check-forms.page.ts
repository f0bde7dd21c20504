import { TRANSFER_CHAINS, SCREEN_NETWORKS } from '../../../domain/shared/network.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';

/** The workbench's three ways to check: an address (light screen or full check), a transfer, an inspect. */
export function checkTabs(active: 'address' | 'transfer' | 'inspect'): SafeHtml {
  const tab = (id: typeof active, href: string, label: string) =>
    html`<a href="${href}"${id === active ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="tabs" aria-label="What to check">${tab('address', '/screen', 'Address')}${tab('transfer', '/checks/transfer', 'Transfer')}${tab('inspect', '/inspect', 'Inspect')}</nav>`;
}

export interface TransferForm {
  readonly chain: string;
  readonly txHash: string;
  readonly error: string | null;
}

/** A transfer check from the dashboard: a chain and a transaction hash, run and billed as POST /v2/check-transfer. */
export function transferFormPage(user: DashboardUser, form: TransferForm): SafeHtml {
  return layout({
    title: 'Check a transfer',
    user,
    section: 'screen',
    body: html`<h1>Check a transfer</h1>
${checkTabs('transfer')}
<p class="lead">Decodes the transaction, weighs each sender's exposure in USD and applies the standard policy, as
<code>POST /v2/check-transfer</code> does; 0.50 USD or 1 unit, charged when the result is shown. Its alerts open cases in Alerts.</p>
${form.error ? html`<p class="error-box" role="alert">${form.error}</p>` : ''}
<form method="post" action="/checks/transfer" class="card">
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="t-chain">Chain</label>
<select id="t-chain" name="chain">${TRANSFER_CHAINS.map((c) => html`<option value="${c}"${c === form.chain ? html` selected` : ''}>${c}</option>`)}</select>
<label for="t-hash">Transaction hash <span class="hint">EVM: 0x and 64 hex digits; TRON: 64 hex digits</span></label>
<input id="t-hash" name="tx_hash" type="text" required maxlength="80" spellcheck="false" autocomplete="off" value="${form.txHash}">
<div class="actions"><button type="submit">Check the transfer</button></div>
</form>`,
  });
}

export interface InspectForm {
  readonly address: string;
  readonly network: string;
  /** The outside providers the account may ask, and which of them it asks by default. */
  readonly providers: readonly { name: string; checked: boolean }[];
  readonly entitled: boolean;
  readonly error: string | null;
}

/** An inspect from the dashboard: the service's own engine and the chosen providers, run and billed as POST /v2/inspect-address. */
export function inspectFormPage(user: DashboardUser, form: InspectForm): SafeHtml {
  return layout({
    title: 'Inspect an address',
    user,
    section: 'screen',
    body: html`<h1>Inspect an address</h1>
${checkTabs('inspect')}
<p class="lead">Asks the service's own engine and the outside providers you choose, and synthesizes their answers into one audit, as
<code>POST /v2/inspect-address</code> does; each provider that answers is charged when the result is shown.</p>
${form.entitled ? '' : html`<p class="error-box" role="alert">Your account is not enabled for inspect: ask an operator to grant it.</p>`}
${form.error ? html`<p class="error-box" role="alert">${form.error}</p>` : ''}
<form method="post" action="/inspect" class="card">
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="i-address">Address</label>
<input id="i-address" name="address" type="text" required maxlength="120" spellcheck="false" autocomplete="off" value="${form.address}">
<label for="i-network">Network</label>
<select id="i-network" name="network">${SCREEN_NETWORKS.map((n) => html`<option value="${n}"${n === form.network ? html` selected` : ''}>${n}</option>`)}</select>
${
  form.providers.length === 0
    ? html`<p class="hint">The service's own engine answers; no outside provider is configured for your account.</p>`
    : html`<fieldset><legend>Outside providers <span class="hint">the service's own engine always answers too</span></legend>
${form.providers.map((p) => html`<label><input type="checkbox" name="providers" value="${p.name}"${p.checked ? html` checked` : ''}> <span>${p.name}</span></label>`)}
</fieldset>`
}
<div class="actions"><button type="submit"${form.entitled ? '' : html` disabled`}>Inspect</button></div>
</form>`,
  });
}
