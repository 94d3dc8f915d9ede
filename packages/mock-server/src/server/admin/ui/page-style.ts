// Served as it is written (no build step, nothing fetched from elsewhere); kept in a TypeScript string so
// that every build of the mock, the single-file one too, carries it.

/** The watch page's style: one column on a phone, the world's parts side by side on a desktop. */
export const PAGE_STYLE = `:root {
  color-scheme: light dark;
  --bg: #f6f7f9;
  --card: #fff;
  --text: #1b1f24;
  --muted: #5a636e;
  --line: #d5d9de;
  --accent: #0b5cad;
  --ok: #17703a;
  --warn: #8a5a00;
  --bad: #b3261e;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15181c;
    --card: #1e2227;
    --text: #e6e9ec;
    --muted: #a1a9b3;
    --line: #3a4048;
    --accent: #6cb0ff;
    --ok: #5fd08a;
    --warn: #e6b450;
    --bad: #ff8a80;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
main { max-width: 90rem; margin: 0 auto; padding: 0 0.75rem 2rem; }
h1 { font-size: 1.25rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
h3 { font-size: 1rem; margin: 0 0 0.4rem; }
h4 { font-size: 0.9rem; margin: 0.5rem 0 0; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0.25rem 0 0.5rem; padding: 0.5rem; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; max-height: 24rem; overflow: auto; }
.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: baseline; max-width: 90rem; margin: 0 auto; padding: 0.75rem; }
.top p { margin: 0; color: var(--muted); }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 0.5rem; top: 0.5rem; background: var(--card); padding: 0.25rem 0.5rem; z-index: 1; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; margin: 0 0 0.75rem; }
.narrow { max-width: 32rem; }
.note { color: var(--muted); margin: 0 0 0.5rem; min-height: 1em; }
.error { color: var(--bad); margin: 0.25rem 0 0; min-height: 1em; }
label { font-weight: 600; }
input, select, button { font: inherit; color: inherit; }
input, select { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 0.3rem 0.4rem; min-width: 0; }
button { background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: 0.35rem 0.7rem; cursor: pointer; }
button:hover { filter: brightness(1.1); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#token-form input { display: block; width: 100%; margin: 0.25rem 0 0.5rem; }
.scope { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.panes { display: grid; gap: 0 0.75rem; }
@media (min-width: 64rem) {
  .panes { grid-template-columns: minmax(0, 3fr) minmax(19rem, 2fr); align-items: start; }
  .panes .grid { grid-template-columns: minmax(0, 1fr); }
}
.scope select { min-width: 10rem; }
.requests, .plain { list-style: none; margin: 0; padding: 0; }
.row { display: grid; grid-template-columns: 3.5rem minmax(0, 1fr) 3rem 4.5rem 4.5rem 7rem; gap: 0.5rem; align-items: baseline; }
.row > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.head { color: var(--muted); font-size: 0.85rem; padding: 0 0.5rem 0.25rem 1.7rem; border-bottom: 1px solid var(--line); }
.requests > li { border-bottom: 1px solid var(--line); }
.requests summary { cursor: pointer; padding: 0.35rem 0.5rem; list-style: none; display: flex; gap: 0.4rem; }
.requests summary::-webkit-details-marker { display: none; }
.requests summary::before { content: "▸"; width: 0.8rem; flex: none; }
.requests details[open] > summary::before { content: "▾"; }
.requests summary .row { flex: 1; min-width: 0; }
.requests details[open] > summary { background: var(--bg); }
.requests .detail { padding: 0.25rem 0.5rem 0.75rem 1.5rem; }
.s2 { color: var(--ok); }
.s3, .s4 { color: var(--warn); }
.s5, .s0 { color: var(--bad); }
.tag { display: inline-block; font-size: 0.75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 0.25rem; margin-left: 0.35rem; color: var(--bad); }
.miss { border-left: 3px solid var(--bad); padding-left: 0.5rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; }
.wide { grid-column: 1 / -1; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; }
.fields { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.35rem 0.5rem; align-items: center; }
.fields .check, .fields button, .fields .error { grid-column: 1 / -1; }
.fields button { justify-self: start; }
.plain > li { padding: 0.15rem 0; }
.changes { max-height: 20rem; overflow: auto; }
@media (max-width: 40rem) {
  .head { display: none; }
  .row { grid-template-columns: 4rem minmax(0, 1fr) 3rem; }
  .row > span:nth-child(2) { grid-column: 1 / -1; grid-row: 2; white-space: normal; word-break: break-all; }
  .row > span:nth-child(n + 4) { font-size: 0.85rem; color: var(--muted); }
}
`;
