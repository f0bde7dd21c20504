/** The dashboard's one stylesheet, served from /dashboard/assets/dashboard.css (no CDN, no build step). */
export const DASHBOARD_CSS = `
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --card: #fff; --accent: #0b5cad;
  --accent-ink: #fff; --danger: #b42318; --ok: #1a7f37; --warn: #9a6700; --focus: #ffbf47; font-size: 16px; }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: .5rem; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { background: #0d1b2a; color: #fff; }
header.top .bar { max-width: 72rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
header.top .brand { font-weight: 700; color: #fff; text-decoration: none; margin-right: auto; }
header.top nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; }
header.top nav a { color: #dbe7f3; text-decoration: none; padding: .35rem .6rem; border-radius: .35rem; display: inline-block; }
header.top nav a[aria-current="page"], header.top nav a:hover { background: #1f3a56; color: #fff; }
header.top .who { display: flex; gap: .75rem; align-items: center; font-size: .9rem; color: #c9d6e3; }
main { max-width: 72rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.75rem 0 .75rem; }
p.lead { color: var(--muted); margin-top: 0; max-width: 48rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem 1.25rem; margin: 1rem 0; }
.tabs { display: flex; gap: .25rem; border-bottom: 1px solid var(--line); margin-bottom: 1rem; flex-wrap: wrap; }
.tabs a { padding: .5rem .9rem; text-decoration: none; color: var(--muted); border-bottom: 3px solid transparent; }
.tabs a[aria-current="page"] { color: var(--ink); border-bottom-color: var(--accent); font-weight: 600; }
button, .button { font: inherit; padding: .5rem 1rem; border-radius: .4rem; border: 1px solid var(--accent); background: var(--accent);
  color: var(--accent-ink); cursor: pointer; min-height: 2.5rem; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: var(--card); color: var(--accent); }
button.danger { background: var(--card); color: var(--danger); border-color: var(--danger); }
button.link { background: none; border: none; color: inherit; text-decoration: underline; padding: 0; min-height: 0; }
button[disabled] { opacity: .6; cursor: progress; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: .875rem; }
input[type=email], input[type=password], input[type=text], input[type=url], input[type=date], select {
  font: inherit; width: 100%; max-width: 32rem; padding: .5rem .6rem; border: 1px solid #8c959f; border-radius: .35rem; background: #fff; }
fieldset { border: 1px solid var(--line); border-radius: .4rem; margin: .75rem 0; padding: .5rem 1rem .75rem; max-width: 32rem; }
legend { font-weight: 600; padding: 0 .25rem; }
fieldset label { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; margin: .35rem 0; }
fieldset label input { margin-top: .3rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1rem; align-items: center; }
.status { margin: .75rem 0 0; min-height: 1.5rem; }
.status.error, .error-box { color: var(--danger); }
.error-box { border: 1px solid var(--danger); background: #fff5f5; border-radius: .4rem; padding: .6rem .9rem; }
.warn-box { color: var(--warn); border: 1px solid var(--warn); background: #fffbeb; border-radius: .4rem; padding: .6rem .9rem; }
.status.ok { color: var(--ok); }
.table-wrap { position: relative; overflow-x: auto; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
caption { text-align: left; padding: .75rem 1rem; font-weight: 600; }
th, td { text-align: left; padding: .55rem .9rem; border-top: 1px solid var(--line); vertical-align: top; white-space: nowrap; }
td.wrap { white-space: normal; word-break: break-word; min-width: 12rem; }
th { background: var(--bg); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; border: 1px solid; }
.badge.ok { color: var(--ok); } .badge.off { color: var(--muted); } .badge.bad { color: var(--danger); } .badge.warn { color: var(--warn); }
.reveal { border: 2px solid var(--ok); background: #f0fff4; border-radius: .5rem; padding: 1rem 1.25rem; margin: 1rem 0; }
.reveal .secret { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.reveal input { font-family: ui-monospace, monospace; flex: 1 1 20rem; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; margin: 1rem 0; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; }
.stat .label { color: var(--muted); font-size: .85rem; }
.stat .value { font-size: 1.35rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.chart svg { width: 100%; height: auto; display: block; }
.chart .bar-calls { fill: #0b5cad; } .chart .bar-spend { fill: #2da44e; }
.chart text { fill: var(--muted); font-size: 14px; font-family: system-ui, sans-serif; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 0 1rem; }
.chart { margin: .5rem 0; }
.chart .axis { stroke: var(--line); }
.legend { display: flex; gap: 1rem; font-size: .9rem; color: var(--muted); flex-wrap: wrap; }
.legend .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: .15rem; margin-right: .3rem; vertical-align: -1px; }
.swatch.calls { background: #0b5cad; } .swatch.spend { background: #2da44e; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .75rem 0; flex-wrap: wrap; }
.inline-form { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin-bottom: 1rem; }
.inline-form label { margin: 0; }
.login { max-width: 26rem; margin: 3rem auto; }
.login input { max-width: none; }
details > summary { cursor: pointer; font-weight: 600; margin: .75rem 0; }
.after-table { margin-top: .5rem; }
.table-wrap.history { max-height: 26rem; overflow-y: auto; }
td.preview { white-space: normal; min-width: 14rem; max-width: 28rem; }
details.preview > summary { font-weight: 400; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
details.preview[open] > code { display: block; white-space: pre-wrap; overflow-wrap: anywhere; margin-top: .25rem; }
article.card h3 { margin-top: .25rem; word-break: break-all; }
.card > h2:first-child { margin-top: .25rem; }
@media (max-width: 40rem) {
  /* A list table becomes one block per row, each cell on its own line after its column's name: every column stays in view. */
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack tr { border-top: 1px solid var(--line); padding: .35rem 0; }
  table.stack td { border: none; display: flex; gap: .75rem; justify-content: space-between; align-items: baseline;
    padding: .15rem .75rem; white-space: normal; text-align: right; min-width: 0; overflow-wrap: anywhere; }
  table.stack td::before { content: attr(data-label); font-weight: 600; color: var(--muted); text-align: left; flex: none; }
  table.stack td.preview { max-width: none; min-width: 0; }
  table.stack details.preview { min-width: 0; overflow: hidden; }
  header.top .who { width: 100%; justify-content: space-between; }
  h1 { font-size: 1.35rem; }
  main { padding: 1rem .75rem 2rem; }
  th, td { padding: .5rem .6rem; }
  .card { padding: .75rem .85rem; }
}
`;
