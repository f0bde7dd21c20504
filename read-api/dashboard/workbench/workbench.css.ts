/** The workbench's stylesheet (/dashboard/assets/workbench.css), next to the dashboard's own. */
export const WORKBENCH_CSS = `
.two-col { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 0 1rem; }
dl.facts { display: grid; grid-template-columns: minmax(9rem, max-content) 1fr; gap: .35rem 1rem; margin: 0; }
dl.facts > div { display: contents; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
main p, figcaption, ol.trail li { overflow-wrap: anywhere; }
code.break { word-break: break-all; }
code.hash { white-space: nowrap; }
textarea { font: inherit; width: 100%; max-width: 32rem; padding: .5rem .6rem; border: 1px solid #8c959f; border-radius: .35rem; }
ol.trail { list-style: none; padding: 0; margin: 0; }
ol.trail li { border-left: 3px solid var(--line); padding: .35rem 0 .6rem .9rem; }
ol.trail blockquote { margin: .35rem 0 0; padding: .35rem .75rem; background: var(--bg); border-radius: .35rem; white-space: pre-wrap; }
/* the policy draft editor: a rule's fields in a grid, each refusal under its field */
.field-error { color: var(--danger); margin: .2rem 0 .6rem; font-size: .9rem; }
[aria-invalid="true"] { border-color: var(--danger); }
fieldset.rule .rule-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; }
fieldset.rule .wide-field { grid-column: 1 / -1; }
fieldset.levels { border: 0; padding: 0; margin: .3rem 0; display: flex; flex-wrap: wrap; gap: .2rem 1rem; }
fieldset.levels label, label.remove { display: inline-flex; gap: .3rem; align-items: center; font-weight: normal; }
table.fit td, table.fit th { padding: .5rem .6rem; }
table.kv th { width: 14rem; background: none; }
table.kv td { white-space: normal; }
.verdict-head { display: flex; flex-wrap: wrap; gap: .75rem 2rem; align-items: baseline; }
.route { margin: .5rem 0 1rem; }
/* drawn at its natural size (one unit a pixel), shrunk to fit a narrower column */
.route svg { max-width: 100%; height: auto; display: block; }
.route svg.tall { display: none; }
.route .node { fill: #fff; stroke: #0b5cad; stroke-width: 2; }
.route .node.end { stroke: #b42318; fill: #fff5f5; }
.route .edge { stroke: #57606a; stroke-width: 2; }
.route text { font: 13px system-ui, sans-serif; fill: #1b1f24; }
.route text.usd { fill: #1a7f37; font-weight: 600; }
.route text.usd.unpriced { fill: #57606a; font-weight: 400; font-style: italic; }
@media (max-width: 40rem) {
  .route svg.wide { display: none; }
  .route svg.tall { display: block; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .4rem; }
}
@media print {
  header.top, .skip, .no-print, form { display: none !important; }
  body { background: #fff; }
  main { max-width: none; padding: 0; }
  .card, section { break-inside: avoid; border: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  .badge { border: 1px solid #000; color: #000 !important; }
}
`;
