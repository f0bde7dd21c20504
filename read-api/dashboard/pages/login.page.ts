import { html, type SafeHtml } from '../html.js';
import { layout } from './layout.js';

export interface LoginView {
  readonly csrf: string;
  readonly next: string;
  readonly email?: string;
  readonly error?: string;
}

export function loginPage(view: LoginView): SafeHtml {
  return layout({
    title: 'Log in',
    user: null,
    body: html`<div class="login card">
<h1>Log in</h1>
<p class="lead">The account dashboard: API keys, usage and webhooks.</p>
${view.error ? html`<p class="error-box" role="alert" id="login-error">${view.error}</p>` : ''}
<form method="post" action="/login" novalidate>
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="next" value="${view.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}"${view.error ? html` aria-describedby="login-error"` : ''}${view.email ? '' : html` autofocus`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${view.email ? html` autofocus` : ''}>
<div class="actions"><button type="submit">Log in</button></div>
</form>
</div>`,
  });
}
