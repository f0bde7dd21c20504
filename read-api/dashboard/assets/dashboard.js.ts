/**
 * The dashboard's one script, served from /dashboard/assets/dashboard.js. Plain forms describe their
 * action in data attributes; this script sends them as JSON to /api with the CSRF header and shows the
 * outcome. Pages stay readable without it; only actions need it.
 *
 *   <form data-api="/api/keys" data-method="POST"      where to send the form's fields as JSON
 *         data-confirm="…"                            ask first (destructive actions)
 *         data-reveal="#new-key" data-reveal-field="api_key"   show a secret of the response, once
 *         data-refresh="#keys"                        re-render these regions from the server
 *         data-poll="#history"                        …and keep re-rendering these for a while (deliveries)
 *         data-reset                                  clear the form once done
 *         data-next="/monitors"                       go there once done (the page's subject is gone)
 *         data-success="…">                           say so in the form's [data-status]
 *   <form data-refresh-region="#history">              a button that only re-renders a region
 *   <button data-copy="#new-key-value">               copy an input's value
 */
export const DASHBOARD_JS = `'use strict';
(function () {
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : '';

  function fieldsOf(form) {
    var body = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || el.type === 'submit' || el.type === 'button') return;
      if (el.type === 'checkbox' && el.hasAttribute('data-list')) {
        body[el.name] = body[el.name] || [];
        if (el.checked) body[el.name].push(el.value);
      } else if (el.type === 'checkbox') {
        body[el.name] = el.checked;
      } else if (el.value !== '') {
        body[el.name] = el.hasAttribute('data-number') ? Number(el.value) : el.value;
      }
    });
    return body;
  }

  function say(form, text, kind) {
    var status = form.querySelector('[data-status]');
    if (!status) return;
    status.textContent = text;
    status.className = 'status' + (kind ? ' ' + kind : '');
  }

  function problemOf(status, body) {
    if (body && body.detail && body.detail.length) {
      return body.detail.map(function (d) { return d.loc.slice(1).join('.') + ': ' + d.msg; }).join('; ');
    }
    if (body && body.error && body.error.message) return body.error.message;
    return 'The request failed (HTTP ' + status + '). Try again.';
  }

  function refresh(selectors) {
    return fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, 'text/html');
        selectors.split(',').forEach(function (selector) {
          var from = fresh.querySelector(selector.trim());
          var to = document.querySelector(selector.trim());
          if (from && to) to.innerHTML = from.innerHTML;
        });
      });
  }

  function reveal(form, body) {
    var panel = document.querySelector(form.getAttribute('data-reveal'));
    var value = body[form.getAttribute('data-reveal-field')];
    if (!panel || typeof value !== 'string') return;
    var input = panel.querySelector('input[data-secret]');
    input.value = value;
    panel.hidden = false;
    input.focus();
    input.select();
  }

  // Asynchronous outcomes (a webhook delivery) show up within seconds: re-render every second, 15 times.
  function poll(selectors, left) {
    if (left <= 0) return;
    setTimeout(function () {
      refresh(selectors).then(function () { poll(selectors, left - 1); }, function () {});
    }, 1000);
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute('data-refresh-region')) {
      event.preventDefault();
      refresh(form.getAttribute('data-refresh-region')).catch(function () {});
      return;
    }
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-api')) return;
    event.preventDefault();
    var question = form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) return;
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    say(form, 'Working…', '');
    fetch(form.getAttribute('data-api'), {
      method: form.getAttribute('data-method') || 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(fieldsOf(form)),
    })
      .then(function (response) {
        return response.text().then(function (text) {
          var body = null;
          try { body = text ? JSON.parse(text) : {}; } catch (e) { body = null; }
          if (response.status === 401 && body && body.error && body.error.code === 'login_required') {
            location.assign('/login?next=' + encodeURIComponent(location.pathname + location.search));
            return;
          }
          if (!response.ok) { say(form, problemOf(response.status, body), 'error'); return; }
          if (form.hasAttribute('data-next')) { location.assign(form.getAttribute('data-next')); return; }
          if (form.hasAttribute('data-reveal')) reveal(form, body || {});
          if (form.hasAttribute('data-reset')) form.reset();
          var done = form.hasAttribute('data-refresh') ? refresh(form.getAttribute('data-refresh')) : Promise.resolve();
          if (form.hasAttribute('data-poll')) poll(form.getAttribute('data-poll'), 15);
          return done.then(function () { say(form, form.getAttribute('data-success') || 'Done.', 'ok'); });
        });
      })
      .catch(function () { say(form, 'The service could not be reached. Check your connection and try again.', 'error'); })
      .then(function () { buttons.forEach(function (b) { b.disabled = false; }); });
  });

  document.addEventListener('click', function (event) {
    var button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    var input = document.querySelector(button.getAttribute('data-copy'));
    if (!input) return;
    var status = button.parentElement.querySelector('[data-copy-status]');
    var report = function (text) { if (status) status.textContent = text; };
    input.focus();
    input.select();
    var fallback = function () {
      var copied = false;
      try { copied = document.execCommand('copy'); } catch (e) { copied = false; }
      report(copied ? 'Copied.' : 'Press Ctrl+C (⌘C) to copy the selected key.');
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { report('Copied.'); }, fallback);
    } else {
      fallback();
    }
  });
})();
`;
