// Served as it is written (no build step, nothing fetched from elsewhere); kept in a TypeScript string so
// that every build of the mock, the single-file one too, carries it.

import { UI_PATH } from './ui-path.js';

/** The watch page itself: the token form, and (once the token is checked) the requests and the world. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Company Data mock</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${UI_PATH}/app.css">
<script src="${UI_PATH}/app.js" defer></script>
</head>
<body>
<a class="skip" href="#requests">Skip to the requests</a>
<header class="top">
  <h1>Company Data mock</h1>
  <p id="status" role="status" aria-live="polite"></p>
</header>
<main>
<form id="token-form" class="card narrow" hidden>
  <h2>Admin token</h2>
  <p>The mock printed it when it started: the Admin API line of its banner (<code>adminToken</code> with
  <code>--json</code>; <code>mock.adminToken</code> in code). This tab keeps it (sessionStorage) and sends it
  in a header with every request, never in a URL.</p>
  <label for="token">Admin token</label>
  <input id="token" name="token" type="password" required spellcheck="false" autocomplete="off">
  <button type="submit">Open</button>
  <p id="token-error" class="error" role="alert"></p>
</form>
<div id="app" hidden>
  <nav class="card scope" aria-label="Session and state">
    <label for="session">Session</label>
    <select id="session"></select>
    <button type="button" id="download">Download state</button>
    <button type="button" id="forget">Forget the token</button>
  </nav>
  <div class="panes">
  <section id="requests" class="card" aria-labelledby="requests-title" tabindex="-1">
    <h2 id="requests-title">Requests</h2>
    <p id="requests-note" class="note" aria-live="polite"></p>
    <div class="row head" aria-hidden="true"><span>Method</span><span>Path</span><span>Status</span><span>Latency</span><span>Session</span><span>Key</span></div>
    <ol id="request-list" class="requests" aria-label="Requests, newest first"></ol>
  </section>
  <section id="world" class="card" aria-labelledby="world-title">
    <h2 id="world-title">The world</h2>
    <div class="grid">
      <section aria-labelledby="clock-title">
        <h3 id="clock-title">Clock</h3>
        <p><output id="clock-now" for="clock-title"></output></p>
        <div class="buttons">
          <button type="button" data-advance="60000">Advance 1 min</button>
          <button type="button" data-advance="3600000">Advance 1 h</button>
          <button type="button" data-advance="86400000">Advance 1 day</button>
          <button type="button" id="clock-toggle">Freeze</button>
        </div>
        <p id="clock-error" class="error" role="alert"></p>
      </section>
      <section aria-labelledby="activity-title">
        <h3 id="activity-title">Activity</h3>
        <form id="activity-form" class="fields">
          <label class="check"><input type="checkbox" id="activity-on"> Activity on</label>
          <label for="callsPerMinute">Calls a minute</label><input id="callsPerMinute" type="number" min="0" step="any">
          <label for="excusedShare">Share excused (0 to 1)</label><input id="excusedShare" type="number" min="0" max="1" step="any">
          <label for="recordingsPerHour">Recordings an hour</label><input id="recordingsPerHour" type="number" min="0" step="any">
          <label for="deactivationsPerDay">Deactivations a day</label><input id="deactivationsPerDay" type="number" min="0" step="any">
          <label for="callDeletionsPerHour">Call deletions an hour</label><input id="callDeletionsPerHour" type="number" min="0" step="any">
          <button type="submit">Apply activity</button>
          <p id="activity-error" class="error" role="alert"></p>
        </form>
      </section>
      <section aria-labelledby="faults-title">
        <h3 id="faults-title">Faults</h3>
        <ul id="fault-list" class="plain" aria-label="Armed faults"></ul>
        <p id="fault-rates"></p>
        <form id="fault-form" class="fields">
          <label for="fault-method">Method</label>
          <select id="fault-method"><option value="">any</option><option>GET</option><option>POST</option></select>
          <label for="fault-path">Path</label><input id="fault-path" value="/v1/calls/" spellcheck="false">
          <label for="fault-status">Status</label><input id="fault-status" type="number" min="100" max="599" value="503">
          <label for="fault-times">Times</label><input id="fault-times" type="number" min="1" value="1">
          <button type="submit">Arm fault</button>
          <p id="fault-error" class="error" role="alert"></p>
        </form>
      </section>
      <section aria-labelledby="quota-title">
        <h3 id="quota-title">Quotas</h3>
        <p id="quota-default"></p>
        <ul id="quota-windows" class="plain" aria-label="Quota windows open now"></ul>
      </section>
      <section class="wide" aria-labelledby="changes-title">
        <h3 id="changes-title">Change journal</h3>
        <p id="changes-note" class="note"></p>
        <ol id="change-list" class="plain changes" aria-label="Changes, newest first"></ol>
      </section>
    </div>
  </section>
  </div>
</div>
</main>
</body>
</html>
`;
