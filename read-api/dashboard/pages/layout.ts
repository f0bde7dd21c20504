import { html, type SafeHtml } from '../html.js';
import type { DashboardUser } from '../session-auth.js';

/** `docs`: the API reference (read-api/docs-page.ts), a Swagger UI page of its own, never the current section. */
export type Section = 'api' | 'usage' | 'webhooks' | 'alerts' | 'screen' | 'history' | 'monitors' | 'policies' | 'docs';

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'api', href: '/account/api', label: 'API keys' },
  { section: 'usage', href: '/account/usage', label: 'Usage' },
  { section: 'webhooks', href: '/webhooks', label: 'Webhooks' },
  { section: 'screen', href: '/screen', label: 'Screen' },
  { section: 'history', href: '/history', label: 'History' },
  { section: 'alerts', href: '/alerts', label: 'Alerts' },
  { section: 'monitors', href: '/monitors', label: 'Monitors' },
  { section: 'policies', href: '/policies', label: 'Policies' },
  { section: 'docs', href: '/docs', label: 'API docs' },
];

/** Every dashboard page: skip link, top bar with navigation and logout, one <main>. */
export function layout(options: {
  title: string;
  user: DashboardUser | null;
  section?: Section;
  body: SafeHtml;
  refreshSeconds?: number;
}): SafeHtml {
  const { title, user, section, body } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${user ? html`<meta name="csrf-token" content="${user.csrfToken}">` : ''}
<title>${title} · Risk screening</title>
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : ''}
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<link rel="stylesheet" href="/dashboard/assets/workbench.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="bar">
<a class="brand" href="/">Risk screening</a>
${
  user
    ? html`<nav aria-label="Main"><ul>${NAV.map(
        (item) => html`<li><a href="${item.href}"${item.section === section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
      )}</ul></nav>
<div class="who"><span>${user.email}</span>
<form method="post" action="/logout"><input type="hidden" name="csrf" value="${user.csrfToken}"><button class="secondary" type="submit">Log out</button></form></div>`
    : ''
}
</div></header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`;
}

/** The account's tabs: API and Usage. */
export function accountTabs(active: 'api' | 'usage'): SafeHtml {
  const tab = (id: 'api' | 'usage', href: string, label: string) =>
    html`<a href="${href}"${id === active ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<h1>Account</h1><nav class="tabs" aria-label="Account">${tab('api', '/account/api', 'API')}${tab('usage', '/account/usage', 'Usage')}</nav>`;
}

/** Dates in lists: the UTC day and minute, readable and unambiguous. */
export function shortDate(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'never';
}

export function errorPage(user: DashboardUser | null, status: number, title: string, message: string): SafeHtml {
  return layout({
    title,
    user,
    body: html`<h1>${title}</h1><p class="lead">${message}</p><p><a href="/">Back to the dashboard</a></p>
<p class="hint">HTTP ${status}</p>`,
  });
}
